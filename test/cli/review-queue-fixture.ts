// A review queue made by the real CLI, for the commands that work on one (accept, decide): people the simulator
// finds by name and employer alone, matched under a threshold name and employer never reach, so every row waits for
// review. Each test file that calls reviewQueueFixture gets its own simulator, folder and data home.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Person } from '../../electron/simulator';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { connectionTo, runMatchdesk, type CliOutcome } from './matchdesk-process';

/** A threshold only an e-mail or profile hit reaches: name and employer alone stay below it. */
export const STRICT_THRESHOLD = '0.9999';

export interface ReviewQueueFixture {
  readonly dir: string;
  /** The CLI with the simulator's connection and the fixture's data home. */
  matchdesk(args: string[]): Promise<CliOutcome>;
  /** People the service finds by name + company alone: a name nobody else has, and a current employer. */
  uniquePeople(count: number): Person[];
  /** A Name,Company sheet of these people, in the fixture's folder. */
  writeSheet(people: Person[], name?: string): string;
  /** `matchdesk match` of the sheet under STRICT_THRESHOLD (project 1 on a fresh home): every row waits for review. */
  matchStrictly(sheet: string, out: string): Promise<CliOutcome>;
  /** The rows of a CSV the CLI wrote, by header. */
  readCsv(path: string): Record<string, string>[];
}

export function reviewQueueFixture(prefix: string): ReviewQueueFixture {
  let sim: Simulator;
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    sim = await startSimulator({ port: 0, people: 3000, seed: 5 });
  });

  afterAll(async () => {
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const fixture: ReviewQueueFixture = {
    get dir() {
      return dir;
    },
    matchdesk: (args) =>
      runMatchdesk(args, {
        cwd: dir,
        home: join(dir, 'home'),
        connection: connectionTo(sim),
      }),
    uniquePeople(count) {
      const names = new Map<string, number>();
      for (const p of sim.dataset.people) names.set(p.name, (names.get(p.name) ?? 0) + 1);
      return sim.dataset.people.filter((p) => names.get(p.name) === 1 && p.jobs[0]?.ended_at === null).slice(0, count);
    },
    writeSheet(people, name = 'people.csv') {
      const sheet = join(dir, name);
      writeFileSync(sheet, `Name,Company\r\n${people.map((p) => `${p.name},${p.jobs[0]!.company.name}`).join('\r\n')}\r\n`);
      return sheet;
    },
    async matchStrictly(sheet, out) {
      const run = await fixture.matchdesk(['match', sheet, '--out', out, '--auto-accept', '--min-confidence', STRICT_THRESHOLD, '--yes']);
      expect(run.code, run.stderr).toBe(0);
      return run;
    },
    readCsv: (path) => Papa.parse<Record<string, string>>(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data,
  };
  return fixture;
}
