// A first run's find replies replayed on one thread, for the verdict worker's CPU a reply without the network, the
// engine's thread or the rest of the machine's load in the figure: the replies are made again from a prepared folder
// (profile-step.ts prepare), each query's stored people as the service sent them, with the cells of the rows asking it
// first. Prints the CPU a reply of the whole reading (row-verdict.ts preparedReply, each reply once, as a run reads it)
// and, best of 15 rounds, of its JSON from its bytes (api/reply-ascii.ts), its people (answerPeople) and of them with
// their blocks, and its verdicts.
//
//   npx tsx bench/profile-step.ts --rows 100000 prepare
//   npx node --max-semi-space-size=8 --import tsx bench/reply-replay.ts --rows 100000 --replies 200
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_SETTINGS, type Mapping, type Strategy } from '../shared/model';
import { parseFindReply } from '../electron/engine/api/find-reply';
import { replyBytesJson } from '../electron/engine/api/reply-ascii';
import { answerPeople } from '../electron/engine/matching';
import { getLookups } from '../electron/engine/store';
import { recordBlocks } from '../electron/engine/store/person-blocks';
import { preparedReply, verdictsFor, type LandedReply } from '../electron/engine/runs/row-verdict';

const { values } = parseArgs({ options: { rows: { type: 'string' }, replies: { type: 'string' }, folder: { type: 'string' } } });
const rows = Number(values.rows ?? 100_000);
const count = Number(values.replies ?? 200);
const folder = values.folder ?? join(fileURLToPath(new URL('./tmp', import.meta.url)), `profile-${rows}`);
const db = new Database(join(folder, 'matchdesk.sqlite'), { readonly: true, fileMustExist: true });

// The first queries of the sheet in row order, a hundred a call as the run sends them, with the rows asking each first.
const project = db.prepare("SELECT id, mapping FROM projects WHERE kind = 'match' ORDER BY id LIMIT 1").get() as { id: number; mapping: string };
const asked = new Map<number, { strategy: Strategy; cells: string[] }>();
const firstSteps = db
  .prepare('SELECT rq.query_id AS id, rq.strategy, r.cells FROM row_queries AS rq JOIN rows AS r USING (project_id, row_index) WHERE rq.project_id = ? AND rq.step = 0 ORDER BY rq.row_index')
  .iterate(project.id) as IterableIterator<{ id: number; strategy: Strategy; cells: string }>;
for (const { id, strategy, cells } of firstSteps) {
  const query = asked.get(id);
  if (query) query.cells.push(cells);
  else if (asked.size < count * 100) asked.set(id, { strategy, cells: [cells] });
}
const ids = [...asked.keys()];
const answers = getLookups(db, ids, Number.MIN_SAFE_INTEGER);
const context = { mapping: JSON.parse(project.mapping) as Mapping, rule: DEFAULT_SETTINGS.autoAccept, learned: null, at: new Date(0).toISOString() };
const replies: LandedReply[] = [];
for (let i = 0; i < ids.length; i += 100) {
  const batch = ids.slice(i, i + 100).filter((id) => answers.get(id)?.status === 'ok');
  const items = batch.map((id) => answers.get(id)!.candidates!.map((c) => c.person));
  replies.push({ bytes: Buffer.from(JSON.stringify(items)), strategies: batch.map((id) => asked.get(id)!.strategy), cells: batch.map((id) => asked.get(id)!.cells), context });
}
db.close();

const cpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};
const line = (label: string, ms: number) => process.stdout.write(`  ${label}: ${((ms / replies.length) * 1000).toFixed(0)} µs a reply\n`);
process.stdout.write(`${replies.length} replies of ${folder}, ${Math.round(replies.reduce((n, r) => n + r.bytes.length, 0) / replies.length / 1000)} kB each\n`);

// Once, as a run reads them: each person is put in a block by the first reply that holds them.
let started = cpuMs();
for (const reply of replies) preparedReply(reply);
line('reading (preparedReply, once)', cpuMs() - started);

const parsed = replies.map((r) => parseFindReply(JSON.parse(Buffer.from(r.bytes).toString('utf8')), r.strategies.length));
const best = (label: string, work: () => void) => {
  let ms = Infinity;
  for (let round = 0; round < 15; round++) {
    started = cpuMs();
    work();
    ms = Math.min(ms, cpuMs() - started);
  }
  line(`${label} (best of 15)`, ms);
};
best('its JSON (replyBytesJson)', () => {
  for (const reply of replies) replyBytesJson(reply.bytes, 'find reply');
});
best('people (answerPeople)', () => {
  for (const reply of parsed) reply.map(answerPeople);
});
best('people and their blocks', () => {
  for (const reply of parsed) recordBlocks(reply.map(answerPeople).flatMap((a) => a.people.map((p) => p.record)));
});
const made = parsed.map((reply) => reply.map(answerPeople));
best('verdicts', () => {
  made.forEach((answers, r) => answers.forEach(({ ranked }, i) => ranked.length > 0 && verdictsFor(replies[r]!.cells[i]!, replies[r]!.strategies[i]!, ranked, { ...context, byPeople: true })));
});
