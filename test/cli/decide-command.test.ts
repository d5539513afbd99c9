// `matchdesk decide`: decisions from a file, recorded as a reviewer would and learned from, or refused whole with the
// line and the reason. The real CLI in a child process against a simulator.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewQueueFixture } from './review-queue-fixture';

const queue = reviewQueueFixture('matchdesk-cli-decide-');
const { matchdesk, uniquePeople, writeSheet, matchStrictly, readCsv } = queue;

async function exported(name: string): Promise<Record<string, string>[]> {
  const out = join(queue.dir, name);
  const result = await matchdesk(['export', '1', '--out', out]);
  expect(result.code, result.stderr).toBe(0);
  return readCsv(out);
}

describe('matchdesk decide', () => {
  it('refuses a bad file whole, naming the line and why, and records a good one as one action', async () => {
    const people = uniquePeople(4);
    await matchStrictly(writeSheet(people), join(queue.dir, 'run.csv'));
    const before = (await exported('before.csv')).map((r) => r.match_status);
    expect(before).toEqual(people.map(() => 'to_review'));

    const file = (name: string, text: string) => {
      writeFileSync(join(queue.dir, name), text);
      return join(queue.dir, name);
    };
    const wrongColumns = await matchdesk(['decide', '--project', '1', '--file', file('cols.csv', 'row,person\r\n2,x\r\n'), '--yes']);
    expect(wrongColumns.code).not.toBe(0);
    expect(wrongColumns.stderr).toContain('line 1: the columns must be exactly "row" and "person_id"');

    // Row 2 is fine; row 99 is not in the project: nothing of the file is recorded.
    const noSuchRow = await matchdesk(['decide', '--project', '1', '--file', file('row.csv', `row,person_id\r\n2,${people[0]!.id}\r\n99,\r\n`), '--yes']);
    expect(noSuchRow.code).not.toBe(0);
    expect(noSuchRow.stderr).toContain('Line 3: row 99 is not a row of');
    const noSuchPerson = await matchdesk(['decide', '--project', '1', '--file', file('person.csv', `row,person_id\r\n2,${people[0]!.id}\r\n3,${people[0]!.id}\r\n`), '--yes']);
    expect(noSuchPerson.code).not.toBe(0);
    expect(noSuchPerson.stderr).toContain(`Line 3: person ${people[0]!.id} is not among row 3's candidates`);
    const notANumber = await matchdesk(['decide', '--project', '1', '--file', file('nan.csv', 'person_id,row\r\n,two\r\n'), '--yes']);
    expect(notANumber.stderr).toContain('line 2: row "two" is not a row number');
    expect((await exported('refused.csv')).map((r) => r.match_status)).toEqual(before);

    // Row 2 takes its person, row 3 none of the candidates; the others stay for review.
    const good = await matchdesk(['decide', '--project', '1', '--file', file('good.csv', `person_id,row\r\n${people[0]!.id},2\r\n,3\r\n`), '--yes']);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stderr).toContain('Recorded 2 decision(s): 1 person(s) chosen, 1 row(s) where none fits; 2 row(s) changed (one action');
    expect(good.stderr).toContain('You accepted 1 of 2 rows with the same name at the same company');
    const after = await exported('after.csv');
    expect(after.map((r) => r.match_status)).toEqual(['accepted', 'rejected', 'to_review', 'to_review']);
  });

  it('starts a new project of the same sheet from what another learned, with --learn-from alone recording nothing', async () => {
    // The first test's sheet, matched again as project 2.
    await matchStrictly(join(queue.dir, 'people.csv'), join(queue.dir, 'again.csv'));
    const itself = await matchdesk(['decide', '--project', '2', '--learn-from', '2']);
    expect(itself.code).not.toBe(0);
    expect(itself.stderr).toContain('a project cannot start from itself');
    // Project 2 learned nothing yet: it is no start for project 1.
    const nothing = await matchdesk(['decide', '--project', '1', '--learn-from', '2']);
    expect(nothing.code).not.toBe(0);
    expect(nothing.stderr).toContain('has learned nothing to start from');

    const started = await matchdesk(['decide', '--project', '2', '--learn-from', '1']);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stderr).not.toContain('Recorded');
    expect(started.stderr).toContain('You accepted 1 of 2 rows with the same name at the same company');
  });
});
