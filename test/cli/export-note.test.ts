// Writing every row while some still wait for review: `match` and `export` say how many, before writing them as
// to_review, and name --matched-only; with it, or with none waiting, they say nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toReviewNote } from '../../electron/cli/review-note';
import { startSimulator, type Simulator } from '../../electron/simulator';
import { connectionTo, runMatchdesk, type Connection } from './matchdesk-process';

let sim: Simulator;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-note-'));
  sim = await startSimulator({ port: 0, people: 3000, seed: 11 });
});

afterAll(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const connection = (): Connection => connectionTo(sim);

describe('the note on rows still to review', () => {
  it('says the count in words and names --matched-only; nothing when none wait or only matched rows are written', () => {
    expect(toReviewNote(1, 'all')).toBe('note: 1 row is still to review: written with match_status to_review and no match. Add --matched-only to write the matched rows only.');
    expect(toReviewNote(1240, 'all')).toMatch(/^note: 1,240 rows are still to review/);
    expect(toReviewNote(0, 'all')).toBeNull();
    expect(toReviewNote(12, 'matched')).toBeNull();
    expect(toReviewNote(12, 'changed')).toBeNull();
  });

  it('comes before match and export write every row, with the count the project has to review', async () => {
    const people = sim.dataset.people.slice(0, 6);
    const sheet = join(dir, 'people.csv');
    writeFileSync(sheet, ['Name,Email', ...people.map((p) => `${p.name},${p.email_address}`), 'Rosalind Featherstone,rosalind@nowhere-corp.example'].join('\n') + '\n');
    const home = join(dir, 'home');
    // Without --auto-accept every row with candidates is left for review: six of the seven.
    const matched = await runMatchdesk(['match', sheet, '--out', join(dir, 'all.csv'), '--yes'], { cwd: dir, home, connection: connection() });
    expect(matched.code, matched.stderr).toBe(0);
    const note = 'note: 6 rows are still to review: written with match_status to_review and no match. Add --matched-only to write the matched rows only.\n';
    expect(matched.stderr).toContain(note);
    expect(matched.stderr.indexOf(note)).toBeLessThan(matched.stderr.indexOf('Wrote 7 rows'));

    const listed = JSON.parse((await runMatchdesk(['projects', '--json'], { cwd: dir, home, connection: {} })).stdout) as { id: number; counts: { to_review: number } }[];
    expect(listed[0]!.counts.to_review).toBe(6);
    const exported = await runMatchdesk(['export', String(listed[0]!.id), '--out', join(dir, 'again.xlsx')], { cwd: dir, home, connection: {} });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(note);
    const only = await runMatchdesk(['export', String(listed[0]!.id), '--out', join(dir, 'matched.csv'), '--matched-only'], { cwd: dir, home, connection: {} });
    expect(only.code, only.stderr).toBe(0);
    expect(only.stdout).toContain('Wrote 0 rows');
    expect(only.stderr).not.toContain('note:');
  }, 120_000);

  it('says nothing when every row was decided by the run', async () => {
    const sheet = join(dir, 'decided.csv');
    writeFileSync(sheet, ['Name,Email', ...sim.dataset.people.slice(10, 14).map((p) => `${p.name},${p.email_address}`)].join('\n') + '\n');
    const run = await runMatchdesk(['match', sheet, '--out', join(dir, 'decided-out.csv'), '--auto-accept', '--yes'], { cwd: dir, home: join(dir, 'home-2'), connection: connection() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('Wrote 4 rows');
    expect(run.stderr).not.toContain('still to review');
  });
});
