// The bench's engine process runs a bundle of the engine, as Electron's main process does: it opens an engine and
// answers calls without tsx, and its workers load from the verdict-worker.js and export-half-worker.js beside it.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnBundle, stopChild } from '../../bench/child-process';
import { bundleForBench } from '../../bench/engine-bundle';
import type { EngineReply } from '../../bench/engine-process';
import { startSimulator, type Simulator } from '../../electron/simulator';
import { tempDir } from '../engine/core/helpers';

const folder = tempDir('matchdesk-bundle-');
// Inside the repository's ignored out/, where the bundle finds node_modules (a bundle in a temp folder would not).
const bundleDir = fileURLToPath(new URL(`../../out/bench-engine-test-${process.pid}/`, import.meta.url));
let sim: Simulator | null = null;

afterAll(async () => {
  await sim?.close();
  folder.remove();
  rmSync(bundleDir, { recursive: true, force: true });
});

describe("the bench's engine bundle", () => {
  it('opens an engine and answers its calls in a process without tsx, its verdict worker beside it', async () => {
    const bundle = await bundleForBench('./engine-child.ts', bundleDir);
    expect(existsSync(join(bundleDir, 'verdict-worker.js'))).toBe(true);

    const worker = new Worker(join(bundleDir, 'verdict-worker.js'), { workerData: { dbPath: null, readCacheMb: 4 } });
    try {
      const answered = new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      worker.postMessage({ id: 7, kind: 'verdicts', context: {}, jobs: [] });
      expect(await answered).toEqual({ id: 7, results: [] });
    } finally {
      await worker.terminate();
    }

    sim = await startSimulator({ port: 0, people: 200, seed: 1 });
    const child = spawnBundle(bundle, [join(folder.dir, 'data')]);
    expect(child.spawnargs.join(' ')).not.toMatch(/tsx/);
    try {
      const next = () =>
        new Promise<unknown>((resolve, reject) => {
          const exited = (code: number | null) => reject(new Error(`The bundled engine process exited (${code}).`));
          child.once('exit', exited);
          child.once('message', (message) => {
            child.off('exit', exited);
            resolve(message);
          });
        });
      expect(await next()).toEqual({ type: 'ready' });
      const ask = async (id: number, op: string, args: unknown[]) => {
        const replied = next();
        child.send({ id, op, args });
        const reply = (await replied) as EngineReply;
        if (!reply.ok) throw new Error(reply.message);
        return reply.value;
      };
      const service = { type: 'ready', baseUrl: sim.baseUrl, orgId: sim.orgId, clientId: sim.demo.clientId, clientSecret: sim.demo.clientSecret, rssMb: 0 };
      expect(await ask(1, 'open', [service, 2])).toMatchObject({ dbPath: join(folder.dir, 'data', 'matchdesk.sqlite') });
      expect(await ask(2, 'call', ['projects.list', {}])).toEqual([]);
      // A large CSV export's worker opens the engine's database from its own entry, which loads none of zod.
      const half = new Worker(join(bundleDir, 'export-half-worker.js'), { workerData: { dbPath: join(folder.dir, 'data', 'matchdesk.sqlite'), readCacheMb: 2 } });
      try {
        expect(await new Promise((resolve, reject) => (half.once('message', resolve), half.once('error', reject)))).toEqual({ kind: 'ready' });
      } finally {
        await half.terminate();
      }
      expect(loadedFrom(join(bundleDir, 'export-half-worker.js'))).not.toContain('zod');
      await ask(3, 'close', []);
    } finally {
      await stopChild(child);
    }
  });
});

/** The packages a bundled file and the chunks it imports load, each once. */
function loadedFrom(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  return [...readFileSync(file, 'utf8').matchAll(/^import .* from "([^"]+)";$/gm)].flatMap(([, from]) =>
    from!.startsWith('./') ? loadedFrom(join(dirname(file), from!), seen) : [from!],
  );
}
