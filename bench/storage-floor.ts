// The floor of a first run's storage: the essential work of storing a run's answers and settling its rows, in two
// layouts, with nothing else of the engine around it. Replays the find replies of a prepared data folder (the
// answers its first run stored, 100 to a call, with the rows each settled) into a fresh SQLite file per layout:
//   old: each answer keeps its candidates' person JSON and facts JSON under a 64-hex key, a row keeps its chosen
//        person as JSON (the layout before migration 23);
//   new: each person version stored once (a content digest finds it again, its facts made once), an answer is the
//        query's integer id with its people's row ids, a row's chosen person is an id;
//   new-unindexed: as new, the digests kept in memory instead of an index, to show what that index's random inserts cost.
// Both read each reply as the engine does (api/reply-ascii.ts replyBytesJson), make the candidates' facts, and commit
// per call as the run does. With --verdicts the new layouts also work out each settled row's verdict as the run does
// (runs/row-verdict.ts verdictsFor: the row's cells against the answer's candidates, the default rule for accepting
// alone) and store it as numbers: the whole of a first run's essential work, on one thread. With --blocks the new
// layouts keep each new person's JSON in a block of its call's new people (compressed by store/person-blocks.ts
// compressedBlock), not in its row, as the engine stores them. Prints CPU per call, bytes handed to write() and the
// file's size for each.
// The rows of a repeated query are settled with its call's answer wherever they are in the sheet, all the sheet's rows
// held in memory: at 1M its writes are no floor (4-6x the replies), nor its memory. --in-row-order (new-unindexed,
// with verdicts) settles them as the run must within its memory: the sheet walked in row order from a table of the
// file, a repeat settled from its answer's facts read back, settled rows written in row order (rowOrderLayout).
// `npm run bench` runs it (new-unindexed with --blocks, without and with --in-row-order) on its first run's folder, in
// a process of its own with the app's flags, and shows both CPU figures a call beside the engine's: the floors of that
// figure on the machine of that run.
//
//   npx tsx bench/profile-step.ts --rows 100000 prepare     # the replies to replay
//   npx tsx bench/storage-floor.ts --rows 100000 [--layout old|new|new-unindexed] [--verdicts] [--blocks] [--in-row-order]
//   npx tsx bench/storage-floor.ts --db FILE --project ID --layout new-unindexed --blocks --json   # another folder's project
// For the app's memory settings, as the bench runs it: npx node --max-semi-space-size=8 --import tsx bench/storage-floor.ts ...
import Database from 'better-sqlite3';
import { hash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseFindReply } from '../electron/engine/api/find-reply';
import { replyBytesJson } from '../electron/engine/api/reply-ascii';
import { candidateFacts, rankedFacts, readStoredPersonFacts, storedFacts, storedPersonFacts, type CandidateFacts } from '../electron/engine/matching';
import { compressedBlock } from '../electron/engine/store/person-blocks';
import { personRecord } from '../electron/engine/store/person-records';
import { verdictsFor, type VerdictContext } from '../electron/engine/runs/row-verdict';
import { DEFAULT_SETTINGS, type Mapping, type Strategy } from '../shared/model';
import { num } from './report';
import type { FloorResult } from './storage-floor-process';

const TMP_DIR = fileURLToPath(new URL('./tmp', import.meta.url));
const { values } = parseArgs({
  options: { rows: { type: 'string' }, layout: { type: 'string' }, db: { type: 'string' }, project: { type: 'string' }, json: { type: 'boolean' }, verdicts: { type: 'boolean' }, blocks: { type: 'boolean' }, 'in-row-order': { type: 'boolean' } },
});
const rows = Number(values.rows ?? 100_000);
const source = values.db ?? join(TMP_DIR, `profile-${rows}`, 'matchdesk.sqlite');
const inRowOrder = values['in-row-order'] === true;
if (inRowOrder && (values.layout ?? 'new-unindexed') !== 'new-unindexed') throw new Error('--in-row-order is for the new-unindexed layout.');
if (!existsSync(source)) throw new Error(values.db ? `No database at ${source}.` : `No prepared folder for ${rows} rows: run "npx tsx bench/profile-step.ts --rows ${rows} prepare" first.`);

interface Call {
  /** The old layout's keys (empty for the new layouts only, whose answers are keyed by their query's id). */
  keys: string[];
  queryIds: number[];
  body: Buffer;
  /** For each answer, the rows it settles. */
  rows: number[][];
  /** For each answer, its rows' cells (their stored JSON text) and the strategy its query is (--verdicts). */
  cells: string[][];
  strategies: Strategy[];
}

/** A row the prepared run settled: its index, its last query's id and strategy, its cells' stored JSON. */
type SheetRow = [number, number, Strategy, string];

/**
 * The prepared run's answers in the order it stored them, as the calls that brought them. --in-row-order: the settled
 * rows instead in row order, for the floor to keep in its own file and walk.
 */
function replayedCalls(): { calls: Call[]; sheetRows: number; mapping: Mapping; settledRows: SheetRow[] } {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    const project = values.project === undefined ? (db.prepare("SELECT id FROM projects WHERE name = 'Profile'").pluck().get() as number) : Number(values.project);
    const sheetRows = (db.prepare('SELECT max(row_index) + 1 FROM row_status WHERE project_id = ?').pluck().get(project) as number | null) ?? 0;
    const mapping = JSON.parse(db.prepare('SELECT mapping FROM projects WHERE id = ?').pluck().get(project) as string) as Mapping;
    const rowsOf = new Map<number, { rows: number[]; cells: string[]; strategy: Strategy }>();
    const settledRows: SheetRow[] = [];
    const settled = db.prepare(
      'SELECT s.row_index, s.query_id, s.strategy, r.cells FROM row_status s JOIN rows r USING (project_id, row_index) WHERE s.project_id = ? AND s.query_id IS NOT NULL',
    );
    for (const [row, id, strategy, cells] of settled.raw().iterate(project) as IterableIterator<[number, number, Strategy, string]>) {
      if (inRowOrder) {
        settledRows.push([row, id, strategy, cells]);
        continue;
      }
      let answer = rowsOf.get(id);
      if (!answer) rowsOf.set(id, (answer = { rows: [], cells: [], strategy }));
      answer.rows.push(row);
      answer.cells.push(cells);
    }
    // The old layout's key stands in as the SHA-256 of the query's id (not made, nor held beside the replies, for the
    // new layouts alone); the candidates as the replies held them, their people's records in rank order (however each
    // is stored: store/person-records.ts personRecord).
    const oldKeys = (values.layout ?? 'old') === 'old';
    const answers = (db.prepare("SELECT query_id, candidates, people FROM lookups WHERE status = 'ok' ORDER BY query_id").raw().all() as [number, string | null, string | null][]).map(
      ([id, candidates, people]) =>
        [oldKeys ? hash('sha256', String(id)) : '', candidates ?? JSON.stringify((JSON.parse(people ?? '[]') as number[]).map((person) => ({ person: personRecord(db, person) }))), id] as const,
    );
    const calls: Call[] = [];
    for (let i = 0; i < answers.length; i += 100) {
      const slice = answers.slice(i, i + 100);
      // The simulator's shape: a list of items, each with its people (their own records, no scores).
      const items = slice.map(([, candidates]) => ({ people: (JSON.parse(candidates) as { person: unknown }[]).map((c) => c.person) }));
      calls.push({
        keys: oldKeys ? slice.map(([key]) => key) : [],
        queryIds: slice.map(([, , id]) => id),
        body: Buffer.from(JSON.stringify({ matches: items })),
        rows: slice.map(([, , id]) => rowsOf.get(id)?.rows ?? []),
        cells: slice.map(([, , id]) => rowsOf.get(id)?.cells ?? []),
        strategies: slice.map(([, , id]) => rowsOf.get(id)?.strategy ?? 'email'),
      });
    }
    settledRows.sort((a, b) => a[0] - b[0]);
    return { calls, sheetRows, mapping, settledRows };
  } finally {
    db.close();
  }
}

function open(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -16384');
  db.pragma('wal_autocheckpoint = 30000');
  return db;
}

const ROWS_TABLE = (chosen: string, rows: number) => `
  CREATE TABLE row_status (project_id INTEGER NOT NULL, row_index INTEGER NOT NULL, state TEXT NOT NULL, candidate_count INTEGER,
    confidence REAL, chosen ${chosen}, fetched_at INTEGER, PRIMARY KEY (project_id, row_index)) WITHOUT ROWID;
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows - 1})
  INSERT INTO row_status (project_id, row_index, state) SELECT 1, i, 'pending' FROM n;`;

function oldLayout(db: Database.Database, rows: number): (call: Call, at: number) => void {
  db.exec(`
    CREATE TABLE lookups (query_key TEXT PRIMARY KEY, query TEXT NOT NULL, fetched_at INTEGER NOT NULL, status TEXT NOT NULL,
      candidate_count INTEGER, facts TEXT, candidates TEXT, error TEXT);
    CREATE INDEX lookups_by_answer ON lookups (fetched_at, query_key, status, candidate_count);
    ${ROWS_TABLE('TEXT', rows)}`);
  const put = db.prepare('INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count, facts, candidates) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const settle = db.prepare("UPDATE row_status SET state = 'to_review', candidate_count = ?, confidence = 0.5, chosen = ?, fetched_at = ? WHERE project_id = 1 AND row_index = ?");
  return (call, at) => {
    const answers = parseFindReply(replyBytesJson(call.body, 'find reply'), call.keys.length);
    for (const [i, candidates] of answers.entries()) {
      const facts = rankedFacts(candidates);
      put.run(call.keys[i], '{"fields":[]}', at, 'ok', candidates.length, storedFacts(facts), JSON.stringify(candidates));
      const chosen = facts[0] ? JSON.stringify({ rank: 1, score: null, summary: facts[0].summary, confidence: 0.5, reason: 'same name', jobChange: null }) : null;
      for (const row of call.rows[i]!) settle.run(facts.length, chosen, at, row);
    }
  };
}

/** A call's answers as newLayout stored them: each answer's people's ids, and its ranked facts (--verdicts). */
interface StoredCall {
  ids: number[][];
  ranked: (CandidateFacts[] | null)[];
}

/** The new layouts' tables and a writer of a call's answers into them (people once, by digest; answers as their ids). */
function newAnswers(db: Database.Database, rows: number, digestIndex: boolean, ranked: boolean, blocks: boolean): (call: Call, at: number) => StoredCall {
  db.exec(`
    CREATE TABLE people (id INTEGER PRIMARY KEY, digest INTEGER NOT NULL, facts TEXT NOT NULL, person TEXT, block INTEGER, position INTEGER);
    CREATE TABLE blocks (id INTEGER PRIMARY KEY, data BLOB NOT NULL);
    ${digestIndex ? 'CREATE INDEX people_by_digest ON people (digest);' : ''}
    CREATE TABLE answers (query_id INTEGER PRIMARY KEY, fetched_at INTEGER NOT NULL, status TEXT NOT NULL, people TEXT, ranks TEXT);
    ${ROWS_TABLE('INTEGER', rows)}`);
  const find = digestIndex ? db.prepare('SELECT id FROM people WHERE digest = ?').pluck() : null;
  const known = new Map<bigint, number>();
  const add = db.prepare('INSERT INTO people (digest, facts, person) VALUES (?, ?, ?)');
  // With --blocks, a call's new people's JSON goes compressed together, each person naming its block and place.
  const addBlocked = db.prepare('INSERT INTO people (digest, facts, block, position) VALUES (?, ?, ?, ?)');
  const putBlock = db.prepare('INSERT INTO blocks (id, data) VALUES (?, ?)');
  let blockId = 0;
  const blocked: string[] = [];
  const put = db.prepare('INSERT INTO answers (query_id, fetched_at, status, people, ranks) VALUES (?, ?, ?, ?, ?)');
  return (call, at) => {
    const answers = parseFindReply(replyBytesJson(call.body, 'find reply'), call.queryIds.length);
    if (blocks) blockId += 1;
    const stored: StoredCall = { ids: [], ranked: [] };
    for (const [i, candidates] of answers.entries()) {
      const facts = ranked ? rankedFacts(candidates) : null;
      // A reply's candidates come in rank order, five at most: its ranked facts are theirs, made once.
      const factsOf = facts && facts.length === candidates.length ? facts : null;
      const ids = candidates.map((c, k) => {
        const json = JSON.stringify(c.person);
        const digest = hash('sha256', json, 'buffer').readBigInt64BE(0);
        const id = find ? (find.get(digest) as number | undefined) : known.get(digest);
        if (id !== undefined) return id;
        const personFacts = storedPersonFacts(factsOf?.[k] ?? candidateFacts(c));
        const added = Number((blocks ? addBlocked.run(digest, personFacts, blockId, blocked.push(json) - 1) : add.run(digest, personFacts, json)).lastInsertRowid);
        if (!find) known.set(digest, added);
        return added;
      });
      put.run(call.queryIds[i], at, 'ok', JSON.stringify(ids), JSON.stringify(candidates.map((c) => [c.rank, c.score])));
      stored.ids.push(ids);
      stored.ranked.push(facts);
    }
    if (blocked.length > 0) {
      putBlock.run(blockId, compressedBlock(blocked.join('\n')));
      blocked.length = 0;
    }
    return stored;
  };
}

/** A row's verdict stored as numbers: its state, candidates, confidence and chosen person's id. */
const SETTLE_VERDICT = 'UPDATE row_status SET state = ?, candidate_count = ?, confidence = ?, chosen = ?, fetched_at = ? WHERE project_id = 1 AND row_index = ?';

function newLayout(db: Database.Database, rows: number, digestIndex: boolean, verdicts: Omit<VerdictContext, 'at'> | null, blocks: boolean): (call: Call, at: number) => void {
  const storeAnswers = newAnswers(db, rows, digestIndex, verdicts !== null, blocks);
  const settle = db.prepare("UPDATE row_status SET state = 'to_review', candidate_count = ?, confidence = 0.5, chosen = ?, fetched_at = ? WHERE project_id = 1 AND row_index = ?");
  const settleVerdict = db.prepare(SETTLE_VERDICT);
  return (call, at) => {
    const { ids: idsOf, ranked: rankedOf } = storeAnswers(call, at);
    for (const [i, ids] of idsOf.entries()) {
      const ranked = rankedOf[i];
      if (!verdicts || !ranked || ranked.length === 0) {
        for (const row of call.rows[i]!) settle.run(ids.length, ids[0] ?? null, at, row);
        continue;
      }
      // The run's verdicts: the row against the answer's first five (all rankedFacts keeps), rows of the same cells
      // assessed once.
      const values = verdictsFor(call.cells[i]!, call.strategies[i]!, ranked, { ...verdicts, at: new Date(at).toISOString(), byPeople: true });
      for (const [j, row] of call.rows[i]!.entries()) {
        const v = values[j]!;
        settleVerdict.run(v[0], v[1], v[13], v[4] === null ? null : (ids[v[4] as number] ?? null), at, row);
      }
    }
  };
}

/** Rows the walk reads at a time, and settled rows written at a time (as runs/held-rows.ts writes them once past the first 20,000). */
const WALK_PAGE = 1000;
const WRITE_ROWS = 6000;
/** Stored answers read back at a time (store/lookups.ts MAX_KEYS_PER_STATEMENT reads up to 500; a page's repeats are fewer). */
const READ_BACK = 150;

/**
 * --in-row-order: the new-unindexed layout with verdicts and blocks, its rows settled as the run settles them, not all
 * of an answer's rows with its call. The sheet is walked in row order from a table of its own, WALK_PAGE rows a read;
 * a row whose answer came in this call is settled with it, a row whose answer came in an earlier call (a repeat) from
 * that answer's people's facts read back from the file; the walk stops at the first row whose answer has not come.
 * Settled rows are held and written in row order, WRITE_ROWS at a time. What it holds is the walk's page and the held
 * rows, as the engine does; the replies it replays are kept as bytes.
 */
function rowOrderLayout(db: Database.Database, rows: number, sheet: readonly SheetRow[], calls: readonly Call[], verdicts: Omit<VerdictContext, 'at'>, blocks: boolean): (call: Call, at: number) => void {
  const storeAnswers = newAnswers(db, rows, false, true, blocks);
  db.exec('CREATE TABLE sheet_rows (row_index INTEGER PRIMARY KEY, query_id INTEGER NOT NULL, strategy TEXT NOT NULL, cells TEXT NOT NULL)');
  const addRow = db.prepare('INSERT INTO sheet_rows VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const row of sheet) addRow.run(row);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  // The call each query's answer comes in, by the query's id (-1: none, its rows found nobody).
  let maxId = 0;
  for (const call of calls) for (const id of call.queryIds) maxId = Math.max(maxId, id);
  for (const [, id] of sheet) maxId = Math.max(maxId, id);
  const callOf = new Int32Array(maxId + 1).fill(-1);
  for (const [k, call] of calls.entries()) for (const id of call.queryIds) callOf[id] = k;

  const readPage = db.prepare('SELECT row_index, query_id, strategy, cells FROM sheet_rows WHERE row_index >= ? ORDER BY row_index LIMIT ?').raw();
  const readBack = db.prepare(
    `SELECT a.query_id, (SELECT group_concat(p.facts, char(10) ORDER BY j.key) FROM json_each(a.people) AS j JOIN people AS p ON p.id = j.value), a.people
     FROM answers AS a WHERE a.query_id IN (${Array(READ_BACK).fill('?').join(', ')})`,
  ).raw();
  const settleVerdict = db.prepare(SETTLE_VERDICT);
  const settleNobody = db.prepare("UPDATE row_status SET state = 'no_match', candidate_count = 0, fetched_at = ? WHERE project_id = 1 AND row_index = ?");

  let page: SheetRow[] = [];
  let walkAt = 0;
  let done = 0;
  /** Settled rows in row order, not written yet: [row, state, count, confidence, chosen] (chosen -1 for none). */
  const held: (string | number)[][] = [];
  const write = (at: number) => {
    for (const [row, state, count, confidence, chosen] of held) {
      if (state === 'no_match') settleNobody.run(at, row);
      else settleVerdict.run(state, count, confidence, chosen === -1 ? null : chosen, at, row);
    }
    held.length = 0;
  };
  return (call, at) => {
    const k = done++;
    const stored = storeAnswers(call, at);
    const context = { ...verdicts, at: new Date(at).toISOString(), byPeople: true };
    const answerOf = new Map(call.queryIds.map((id, i) => [id, i]));
    for (;;) {
      if (page.length === 0) {
        page = readPage.all(walkAt, WALK_PAGE) as SheetRow[];
        if (page.length === 0) break;
        walkAt = page[page.length - 1]![0] + 1;
      }
      // The rows settled now: from the page's start to the first whose answer has not come yet.
      let ready = 0;
      while (ready < page.length && callOf[page[ready]![1]]! <= k) ready++;
      if (ready === 0) break;
      const settling = page.slice(0, ready);
      page = page.slice(ready);
      // Repeats: the people's facts of answers stored by earlier calls, read back, each once for these rows.
      const repeats = [...new Set(settling.filter(([, id]) => !answerOf.has(id) && callOf[id]! >= 0).map(([, id]) => id))];
      const readFacts = new Map<number, { facts: CandidateFacts[]; ids: number[] }>();
      for (let i = 0; i < repeats.length; i += READ_BACK) {
        const keys = repeats.slice(i, i + READ_BACK);
        while (keys.length < READ_BACK) keys.push(keys[keys.length - 1]!);
        for (const [id, lines, people] of readBack.all(keys) as [number, string | null, string][]) {
          const facts = lines === null ? [] : lines.split('\n').map((line) => readStoredPersonFacts(line)!);
          readFacts.set(id, { facts, ids: JSON.parse(people) as number[] });
        }
      }
      for (const [row, id, strategy, cells] of settling) {
        const i = answerOf.get(id);
        const answer = i === undefined ? readFacts.get(id) : { facts: stored.ranked[i]!, ids: stored.ids[i]! };
        if (!answer || answer.facts.length === 0) {
          held.push([row, 'no_match', 0, 0, -1]);
          continue;
        }
        const v = verdictsFor([cells], strategy, answer.facts, context)[0]!;
        held.push([row, v[0] as string, v[1] as number, (v[13] as number | null) ?? 0, v[4] === null ? -1 : (answer.ids[v[4] as number] ?? -1)]);
      }
    }
    if (held.length >= WRITE_ROWS || done === calls.length) write(at);
  };
}

async function bytesWritten(): Promise<number | null> {
  const io = await readFile('/proc/self/io', 'utf8').catch(() => null);
  return io === null ? null : Number(/^wchar: (\d+)$/m.exec(io)![1]);
}

const { calls, sheetRows, mapping, settledRows } = replayedCalls();
const verdicts = values.verdicts || inRowOrder ? { mapping, rule: DEFAULT_SETTINGS.autoAccept, learned: null } : null;
const replyBytes = calls.reduce((sum, c) => sum + c.body.length, 0);
const say = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`);
say(`${num(calls.length)} calls, ${num(calls.reduce((s, c) => s + c.queryIds.length, 0))} answers, ${num(replyBytes / 1e6)} MB of replies`);
await mkdir(TMP_DIR, { recursive: true });
for (const layout of values.layout ? [values.layout] : ['old', 'new', 'new-unindexed']) {
  const dir = join(TMP_DIR, `storage-floor-${process.pid}-${layout}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir);
  const path = join(dir, 'floor.sqlite');
  const db = open(path);
  // The old layout has no blocks: --blocks is for the new ones.
  const blocks = layout !== 'old' && values.blocks === true;
  const store =
    layout === 'old'
      ? oldLayout(db, sheetRows)
      : inRowOrder
        ? rowOrderLayout(db, sheetRows, settledRows, calls, verdicts!, blocks)
        : newLayout(db, sheetRows, layout !== 'new-unindexed', verdicts, blocks);
  // The sheet's rows are in the file now, read from there as the run reads them: not held beside the replies.
  settledRows.length = 0;
  const written = await bytesWritten();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const [i, call] of calls.entries()) db.transaction(() => store(call, 1_700_000_000_000 + i))();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  const after = await bytesWritten();
  const wrote = after === null || written === null ? null : after - written;
  // Every row the prepared run settled is settled here too, in row order.
  const unsettled = inRowOrder ? (db.prepare("SELECT count(*) FROM row_status WHERE state = 'pending' AND row_index IN (SELECT row_index FROM sheet_rows)").pluck().get() as number) : 0;
  if (unsettled > 0) throw new Error(`${num(unsettled)} rows were left unsettled.`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const result: FloorResult = {
    layout,
    verdicts: verdicts !== null,
    blocks,
    inRowOrder,
    calls: calls.length,
    cpuMsPerCall: (used.user + used.system) / 1000 / calls.length,
    writtenBytes: wrote,
    replyBytes,
    fileBytes: statSync(path).size,
  };
  await rm(dir, { recursive: true, force: true });
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  say(
    `${layout}${verdicts ? ' with verdicts' : ''}${blocks ? ', records in blocks' : ''}${inRowOrder ? ', in row order' : ''}: ${num(seconds, 2)} s, CPU ${num(result.cpuMsPerCall, 2)} ms a call, ` +
      `${wrote === null ? 'its writes unknown here' : `wrote ${num(wrote / 1e6)} MB (${num(wrote / replyBytes, 2)}x the replies)`}, file ${num(result.fileBytes / 1e6)} MB`,
  );
}
