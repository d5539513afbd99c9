import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import type { CallInput, CallName, CallOutput, CallResult, ProjectDetail, RunProgress } from '../shared/contract';
import { spawnBundle, stopChild } from './child-process';
import { bundleForBench } from './engine-bundle';
import { BenchFailure } from './engine-bench';
import type { MemoryPeak } from './memory-sampler';
import { SHEET_MAPPING } from './sheet-generator';
import type { SimulatorReady } from './simulator-process';

export interface WebHostFlow {
  uploadSeconds: number;
  importSeconds: number;
  planningSeconds: number;
  runSeconds: number;
  calls: number;
  reviewP95Ms: number;
  exportSeconds: number;
  downloadBytes: number;
  maxRssMb: number;
  cpuSeconds: number;
  /** Its sampled peak by part of the flow, and the split at the highest sample. */
  memory: MemoryPeak;
}

/**
 * The browser host (its own process) through its HTTP API, as the page drives it: upload the sheet, import it,
 * save the mapping, run it (answered from the cache already in `dataDir`), page the review list, export and
 * download the CSV. What matters is its peak resident memory with a sheet of this size; the times are for context.
 */
export async function runWebHostFlow(sheet: string, dataDir: string, service: SimulatorReady, reviewFetches: number): Promise<WebHostFlow> {
  // As `npm run web` starts it: bundled (bin/matchdesk.mjs runs the CLI's bundle), with the app's flags and LAUNCHER_ENV.
  const child = spawnBundle(await bundleForBench('./web-host-child.ts'), [dataDir]);
  child.stdout!.on('data', (chunk: Buffer) => process.stdout.write(chunk));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-5000)));
  try {
    const ready = await new Promise<{ origin: string; token: string }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`The web host exited before it was ready (exit ${code}): ${stderr.trim()}`)));
      child.once('message', (m: { type: string; origin: string; token: string }) => (m.type === 'ready' ? resolve(m) : reject(new Error('unexpected message'))));
    });
    child.removeAllListeners('exit');
    const headers = { 'x-matchdesk-token': ready.token };
    const call = async <K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>> => {
      const res = await fetch(`${ready.origin}/api/call/${name}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(input) });
      const result = (await res.json()) as CallResult<K>;
      if (!result.ok) throw new BenchFailure(`web host ${name} failed (${result.error.kind}): ${result.error.message}`);
      return result.value as CallOutput<K>;
    };
    let entered = 0;
    /** The host's memory samples count towards `phase` from here (it says so before the flow goes on). */
    const enter = (phase: string) =>
      new Promise<void>((resolve) => {
        const id = ++entered;
        const onMessage = (m: { type: string; id: number }) => {
          if (m.type !== 'entered' || m.id !== id) return;
          child.off('message', onMessage);
          resolve();
        };
        child.on('message', onMessage);
        child.send({ type: 'enter', phase, id });
      });
    const timed = async <T>(work: () => Promise<T>, phase: string): Promise<{ value: T; seconds: number }> => {
      await enter(phase);
      const started = performance.now();
      const value = await work();
      return { value, seconds: (performance.now() - started) / 1000 };
    };

    // The engine's profile kept its secret for its own session only: this process is given it again.
    const profile = (await call('profiles.list', {})).find((p) => p.name === 'Bench simulator');
    if (!profile) throw new BenchFailure('The engine left no "Bench simulator" profile in the data folder.');
    await call('profiles.save', { id: profile.id, name: profile.name, baseUrl: service.baseUrl, orgId: service.orgId, kind: 'service_account', login: service.clientId, secret: service.clientSecret, sessionOnly: true });
    await call('profiles.select', { id: profile.id });

    const size = (await stat(sheet)).size;
    const upload = await timed(async () => {
      const res = await fetch(`${ready.origin}/api/upload`, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(size), 'x-matchdesk-file-name': encodeURIComponent(basename(sheet)) },
        body: Readable.toWeb(createReadStream(sheet)) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      return ((await res.json()) as { ref: string }).ref;
    }, 'upload');
    const imported = await timed(() => call('projects.import', { file: upload.value, name: 'Bench web host' }), 'import');
    const projectId = (imported.value as ProjectDetail).summary.id;
    const planning = await timed(() => call('mapping.save', { projectId, mapping: SHEET_MAPPING, strategies: ['email', 'social', 'name+company'] }), 'planning');
    const run = await timed(async () => {
      let progress: RunProgress | null = await call('run.start', { projectId });
      while (progress?.status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 250));
        progress = await call('run.status', { projectId });
      }
      if (progress?.status !== 'done') throw new BenchFailure(`The web host's run ended "${progress?.status}": ${progress?.message}`);
      return progress;
    }, 'run');
    const total = (await call('review.page', { projectId, offset: 0, limit: 1 })).total;
    const pages: number[] = [];
    for (let i = 0; i < reviewFetches; i++) {
      const offset = Math.floor(((total - 200) * i) / Math.max(1, reviewFetches - 1));
      pages.push((await timed(() => call('review.page', { projectId, offset: Math.max(0, offset), limit: 200 }), 'review')).seconds * 1000);
    }
    pages.sort((a, b) => a - b);
    const exported = await timed(async () => {
      const result = await call('export.run', { projectId, format: 'csv', scope: 'all' });
      const res = await fetch(`${ready.origin}/api/download/${encodeURIComponent(result.downloadRef!)}`, { headers });
      let bytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
      return bytes;
    }, 'export + download');
    const usage = await ask(child);
    return {
      uploadSeconds: upload.seconds,
      importSeconds: imported.seconds,
      planningSeconds: planning.seconds,
      runSeconds: run.seconds,
      calls: run.value.calls,
      reviewP95Ms: pages[Math.max(0, Math.ceil(pages.length * 0.95) - 1)] ?? Number.NaN,
      exportSeconds: exported.seconds,
      downloadBytes: exported.value,
      ...usage,
    };
  } finally {
    await stopChild(child);
  }
}

function ask(child: ChildProcess): Promise<{ maxRssMb: number; cpuSeconds: number; memory: MemoryPeak }> {
  return new Promise((resolve) => {
    const onMessage = (m: { type: string; maxRssMb: number; cpuSeconds: number; memory: MemoryPeak }) => {
      if (m.type !== 'usage') return;
      child.off('message', onMessage);
      resolve({ maxRssMb: m.maxRssMb, cpuSeconds: m.cpuSeconds, memory: m.memory });
    };
    child.on('message', onMessage);
    child.send({ type: 'usage', id: 1 });
  });
}
