// The confidence threshold from the command line: `match --min-confidence` for the run, then `accept` showing how
// many rows each threshold takes and accepting at one. The real CLI in a child process against a simulator.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewQueueFixture } from './review-queue-fixture';

const queue = reviewQueueFixture('matchdesk-cli-accept-');
const { matchdesk, uniquePeople, writeSheet, matchStrictly, readCsv } = queue;

const statuses = (path: string): string[] => readCsv(path).map((r) => r.match_status!);

describe('matchdesk match --min-confidence, then matchdesk accept', () => {
  it('leaves rows below the run\'s threshold for review, counts them per threshold, and accepts them at a lower one', async () => {
    const people = uniquePeople(8);
    const sheet = writeSheet(people);
    const run = await matchStrictly(sheet, join(queue.dir, 'strict.csv'));
    expect(statuses(join(queue.dir, 'strict.csv'))).toEqual(people.map(() => 'to_review'));
    expect(run.stderr).toContain('Rows waiting for review that a threshold would accept');
    expect(run.stderr).toMatch(/at or above 0\.95:\s+8 row\(s\) \(setting\)/);
    expect(run.stderr).toContain('To accept at a threshold: matchdesk accept --project 1 --min-confidence X');

    const accepted = await matchdesk(['accept', '--project', '1', '--min-confidence', '0.95', '--yes']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toContain('Accepted 8 row(s) at or above 0.95');
    const exported = await matchdesk(['export', '1', '--out', join(queue.dir, 'after.csv')]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(statuses(join(queue.dir, 'after.csv'))).toEqual(people.map(() => 'auto'));

    const nothingLeft = await matchdesk(['accept', '--project', '1', '--yes']);
    expect(nothingLeft.stderr).toContain('nothing changed');
  });

  it('refuses a threshold outside 0.5 to 1 before doing anything', async () => {
    const result = await matchdesk(['match', join(queue.dir, 'people.csv'), '--out', join(queue.dir, 'x.csv'), '--min-confidence', '0.3', '--yes']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--min-confidence takes a confidence from 0.5 to 1 (e.g. 0.9), not "0.3"');
  });
});
