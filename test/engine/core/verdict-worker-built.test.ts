// The built app's verdict worker: electron-vite bundles it as a second entry beside the main bundle, and the engine
// code in the bundle starts it by a path relative to itself (runs/verdict-thread.ts). Electron's main process is
// Node, so the bundle is checked here with Node: where the bundle looks, the worker is, and it answers as the source
// does, from the facts it is sent, from the answers it reads itself and from a find reply's text. Skipped, saying why, where the app is not built (CI builds it before the tests).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { answerPeople, rankedFacts, storedFacts } from '../../../electron/engine/matching';
import { jobVerdicts, preparedReply, receivedAnswers, verdictsFor, type PreparedAnswers, type SentAnswers, type VerdictContext } from '../../../electron/engine/runs/row-verdict';
import { readBlock } from '../../../electron/engine/store/person-blocks';
import { blockRecordAt } from '../../../electron/engine/store/person-records';
import type { AnswersRequest, ReplyRequest, VerdictReply, VerdictRequest, VerdictWorkerData } from '../../../electron/engine/runs/verdict-thread';
import { storedQueryId } from '../../../electron/engine/runs/query-ids';
import { getAnswerFacts, openDatabase, putLookups } from '../../../electron/engine/store';
import type { Candidate } from '../../../shared/model';
import { skipBecause } from '../../support/skips';
import { tempDir } from './helpers';

const OUT_MAIN = join(import.meta.dirname, '..', '..', '..', 'out', 'main');
const STARTS_WORKER = 'new URL("./verdict-worker.js"';

/** The bundle files under out/main/, chunks included. */
function bundleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? bundleFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []));
}

const built = existsSync(join(OUT_MAIN, 'index.js'));
const skipped = skipBecause('the built verdict worker test', built ? null : 'the app is not built (out/main/index.js is missing): run "npm run build" first');

describe.skipIf(skipped)('the built verdict worker', () => {
  it('sits where the bundle starts it, and answers as the source does', async () => {
    const starters = bundleFiles(OUT_MAIN).filter((file) => readFileSync(file, 'utf8').includes(STARTS_WORKER));
    expect(starters).toHaveLength(1);
    const workerFile = join(dirname(starters[0]!), 'verdict-worker.js');
    expect(existsSync(workerFile), `${workerFile} is where the bundle starts the worker`).toBe(true);

    const answer: Candidate[] = [
      { rank: 1, score: null, person: { name: 'Jane Doe', jobs: [{ company: { name: 'Globex' }, title: 'Engineer', started_at: '2020-01-01', ended_at: null }] } },
      { rank: 2, score: null, person: { name: 'Jane Doe', jobs: [{ company: { name: 'Initech' }, title: 'Engineer', started_at: '2019-01-01', ended_at: null }] } },
    ];
    const facts = rankedFacts(answer);
    const context: VerdictContext = { mapping: { fullName: 0, company: 1 }, rule: { enabled: true, minConfidence: 0.9, minLead: 0.3 }, at: '2026-01-02T03:04:05.000Z' };
    const cells = [JSON.stringify(['Jane Doe', 'Globex']), JSON.stringify(['Jane Doe', ''])];
    // The answers it reads itself come from a database of the engine's making (better-sqlite3 loads in its thread).
    const tmp = tempDir('matchdesk-built-worker-');
    const dbPath = join(tmp.dir, 'matchdesk.sqlite');
    const db = openDatabase(dbPath);
    const jane = { fields: [{ field_name: 'name', search_term: 'Jane Doe' }] };
    const nobody = { fields: [{ field_name: 'name', search_term: 'Nobody' }] };
    const [found, none] = [storedQueryId(db, 1n, jane), storedQueryId(db, 2n, nobody)];
    putLookups(db, [
      { queryId: found, query: jane, fetchedAt: 1000, status: 'ok', candidates: answer, error: null, stored: answerPeople(answer) },
      { queryId: none, query: nobody, fetchedAt: 2000, status: 'ok', candidates: [], error: null, stored: answerPeople([]) },
    ]);
    // Read back with its people's ids, an answer names the chosen person by number: the worker's verdicts are these,
    // sent with those ids.
    const foundFacts = getAnswerFacts(db, [found], 0).get(found)?.facts ?? null;
    const fromStore = foundFacts === null ? null : jobVerdicts({ strategy: 'name', facts: foundFacts, cells }, context);
    const foundPeople = JSON.parse(db.prepare('SELECT people FROM lookups WHERE query_id = ?').pluck().get(found) as string) as number[];
    db.close();
    const worker = new Worker(pathToFileURL(workerFile), { workerData: { dbPath, readCacheMb: 4 } satisfies VerdictWorkerData });
    const ask = (request: VerdictRequest | AnswersRequest | ReplyRequest) =>
      new Promise<VerdictReply>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage(request);
      });
    try {
      const values = verdictsFor(cells, 'name', facts, context);
      expect(await ask({ id: 1, kind: 'verdicts', context, jobs: [{ strategy: 'name', facts: storedFacts(facts), cells }] })).toEqual({ id: 1, results: [values] });
      const keys = [found, none, 999];
      expect(await ask({ id: 2, kind: 'answers', context, freshAfter: 0, keys, strategies: ['name', 'name', 'name'], cells: [cells, cells, cells] })).toEqual({
        id: 2,
        results: [{ kind: 'found', count: 2, fetchedAt: 1000, values: fromStore, people: foundPeople }, { kind: 'nobody', fetchedAt: 2000 }, null],
      });
      // A find reply as the service sends it: read there and made ready to store, as the source makes it; one that
      // does not read fails there (the engine then reads it itself).
      const utf8 = new TextEncoder();
      const reply = { bytes: utf8.encode(JSON.stringify([answer.map((c) => c.person), []])), strategies: ['name' as const, 'email' as const], cells: [cells, cells], context };
      // Its new people's records come in a block made there (a thread blocks a person once, so the source's own reading
      // here may make none): compared apart, read back.
      // The rows' values cross as JSON text, and read back as the source made them.
      const sent = (await ask({ id: 3, kind: 'reply', ...reply })) as { id: number; results: SentAnswers };
      expect(sent.results.values).toBeTypeOf('string');
      const prepared = { ...sent, results: receivedAnswers(sent.results) };
      expect({ ...prepared, results: withoutBlocks(prepared.results) }).toEqual({ id: 3, results: withoutBlocks(preparedReply(reply)) });
      const people = prepared.results.stored.flatMap((a) => a.people);
      expect(people.map((p) => blockRecordAt(readBlock(p.inBlock!.block.data), p.inBlock!.position))).toEqual(answer.map((c) => c.person));
      expect(preparedReply(reply).values[0]).toEqual(fromStore);
      expect(await ask({ id: 4, kind: 'reply', ...reply, bytes: utf8.encode('[[{"name": "Jane') })).toMatchObject({ id: 4, error: expect.stringMatching(/ReplyNotJson/) });
    } finally {
      await worker.terminate();
      tmp.remove();
    }
  });
});

/** A reply made ready to store, without where its people's records were put in blocks. */
function withoutBlocks(prepared: PreparedAnswers): PreparedAnswers {
  return { ...prepared, stored: prepared.stored.map((a) => ({ ...a, people: a.people.map(({ inBlock: _inBlock, ...p }) => p) })) };
}
