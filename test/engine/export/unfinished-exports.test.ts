// Part files of exports: recorded while written, so that one a kill left behind is gone at the next start; owner-only
// in the data folder, and as the user's umask makes them where the user chose to save.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipBecause } from '../../support/skips';
import { ok, openEngine, tempDir, writeCsv } from '../core/helpers';

const posixSkipped = skipBecause('the owner-only file permission tests', process.platform === 'win32' ? 'Windows has no POSIX file modes' : null);
const mode = (p: string) => statSync(p).mode & 0o777;
const CHILD = resolve(import.meta.dirname, 'export-until-killed.ts');
const ROWS = Array.from({ length: 300 }, (_, i) => [`Person ${i}`, `person${i}@example.com`, `Company ${i % 20}`]);

describe('an export cut off by a kill', () => {
  it.each([
    ['one thread', [], ['matches.csv.part']],
    // The worker's half of the matches waits in a file of its own until the files are renamed in.
    ['two threads', ['halves'], ['matches.csv.2.part', 'matches.csv.part']],
  ])('leaves no part file behind once the engine starts again (the matches on %s)', async (_, mode, left) => {
    const tmp = tempDir('matchdesk-unfinished-');
    try {
      const dataDir = join(tmp.dir, 'data');
      const saved = join(tmp.dir, 'saved');
      mkdirSync(saved);
      const sheet = writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Email', 'Company'], ROWS);
      const out = join(saved, 'matches.csv');
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, sheet, out, ...mode], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<NodeJS.Signals | null>((done) => child.on('close', (_code, signal) => done(signal)));
      await new Promise<void>((done, fail) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('exporting') && done());
        child.on('close', () => fail(new Error(`the child ended before exporting: ${stderr}`)));
      });
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      // What the kill left: the matches whole in their part file, waiting for the candidates.
      expect(readdirSync(saved).sort()).toEqual(left);

      const engine = await openEngine(dataDir);
      await engine.close();
      expect(readdirSync(saved)).toEqual([]);
      expect(readdirSync(join(dataDir, 'unfinished-exports'))).toEqual([]);
    } finally {
      tmp.remove();
    }
  });

  it('leaves the part file of an export still going in another process', async () => {
    const tmp = tempDir('matchdesk-unfinished-');
    const dataDir = join(tmp.dir, 'data');
    const out = join(tmp.dir, 'matches.csv');
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Email', 'Company'], ROWS), out], { stdio: ['ignore', 'pipe', 'ignore'] });
    const exited = new Promise<void>((done) => child.on('close', () => done()));
    try {
      await new Promise<void>((done) => child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('exporting') && done()));
      const engine = await openEngine(dataDir);
      await engine.close();
      expect(existsSync(`${out}.part`)).toBe(true);
    } finally {
      child.kill('SIGKILL');
      await exited;
      tmp.remove();
    }
  });
});

describe.skipIf(posixSkipped)('the modes of exported files', () => {
  it('follows the user umask where the user chose to save, and keeps nothing recorded once written', async () => {
    const tmp = tempDir('matchdesk-unfinished-');
    try {
      const dataDir = join(tmp.dir, 'data');
      const engine = await openEngine(dataDir);
      try {
        const sheet = writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Email', 'Company'], ROWS.slice(0, 5));
        const project = (await ok(engine, 'projects.import', { file: sheet })).summary;
        const out = join(tmp.dir, 'matches.xlsx');
        await ok(engine, 'export.run', { projectId: project.id, format: 'xlsx', scope: 'all', candidates: true, destination: out });
        // A file made here the ordinary way, for what the umask gives.
        const reference = join(tmp.dir, 'reference.txt');
        writeFileSync(reference, '');
        expect(mode(out)).toBe(mode(reference));
        expect(mode(join(tmp.dir, 'matches-candidates.xlsx'))).toBe(mode(reference));
        expect(readdirSync(join(dataDir, 'unfinished-exports'))).toEqual([]);
      } finally {
        await engine.close();
      }
    } finally {
      tmp.remove();
    }
  });
});
