import Database from 'better-sqlite3';
import { createHash, hash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../../electron/engine/engine';
import { SessionSecretStore } from '../../../../electron/engine/secrets';
import { personRecord, recordOf, recordSql } from '../../../../electron/engine/store/person-records';
import { ALL_MIGRATIONS, MigrationStopped, getAnswerFacts, getLookups, migrate, migrateInSlices, openDatabase, queryDigest, type MigrationProgress } from '../../../../electron/engine/store';
import type { Simulator } from '../../../../electron/simulator';
import type { FindQuery } from '../../../../shared/model';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../../core/helpers';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

/** A query's key as every version before 28 made it: the SHA-256 of its service and its terms in canonical order. */
function oldKey(baseUrl: string, orgId: string, query: FindQuery): string {
  const terms = query.fields.map((f) => [f.field_name, f.search_term]).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0));
  return hash('sha256', JSON.stringify([baseUrl.replace(/\/+$/, '').toLowerCase(), orgId, terms]));
}

const base = 'https://gotlivedata.io';
const email = (address: string): FindQuery => ({ fields: [{ field_name: 'email_address', search_term: address }] });
const nameAt = (name: string, company: string): FindQuery => ({
  fields: [
    { field_name: 'name', search_term: name },
    { field_name: 'company.name', search_term: company },
  ],
});

describe('migration 28: queries stored once with an integer id; answers and rows keyed by it', () => {
  it('gives every query an id in row order, keys the answers and rows by it, and keeps what each read', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(27));
      const project = (name: string) => Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES (?, 'ready', 't', 't')").run(name).lastInsertRowid);
      const [first, second] = [project('first'), project('second')];
      const [ada, bob, cy, refresh] = [email('ada@example.com'), nameAt('Bob Roe', 'Acme'), email('cy@example.com'), { fields: [{ field_name: 'social', search_term: 'ada' }] }];
      const key = (q: FindQuery) => oldKey(base, 'org', q);
      // Plans as versions before wrote them: the query's text as pairs, or (older) its FindQuery JSON, a per-project id.
      const step = db.prepare('INSERT INTO row_queries (project_id, row_index, step, strategy, query_key, query, query_id) VALUES (?, ?, ?, ?, ?, ?, ?)');
      step.run(first, 0, 0, 'email', key(ada), '[["email_address","ada@example.com"]]', 0);
      step.run(first, 1, 0, 'email', key(cy), JSON.stringify(cy), 1);
      step.run(first, 1, 1, 'name+company', key(bob), '[["name","Bob Roe"],["company.name","Acme"]]', 2);
      step.run(second, 0, 0, 'name+company', key(bob), '[["name","Bob Roe"],["company.name","Acme"]]', 0);
      step.run(second, 1, 0, 'email', key(ada), '[["email_address","ada@example.com"]]', 1);
      const status = db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, step, strategy, query_key, query_id, fetched_at, candidate_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
      status.run(first, 0, 'to_review', 'to_review', 0, 'email', key(ada), 0, 1000, 1);
      status.run(first, 1, 'error', 'error', 1, 'name+company', key(bob), 2, null, 0);
      status.run(second, 0, 'pending', 'pending', 0, 'name+company', key(bob), 0, null, 0);
      // A row kept from a plan made for another service: its key is in no plan, and its answer was cleared.
      status.run(second, 1, 'no_candidates', 'no_candidates', 0, 'email', 'f'.repeat(64), 1, 900, 0);
      status.run(second, 2, 'no_query', 'no_query', 0, null, null, null, null, 0);
      const answer = db.prepare('INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count, error, people, ranks) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      answer.run(key(refresh), JSON.stringify(refresh), 3000, 'ok', 0, null, '[]', '[]');
      answer.run(key(ada), JSON.stringify(ada), 1000, 'ok', 0, null, '[]', '[]');
      answer.run(key(bob), JSON.stringify(bob), 2000, 'error', null, '{"kind":"server","message":"boom"}', null, null);

      expect(migrate(db, upTo(28)).applied).toEqual([28]);
      expect(db.prepare("SELECT name FROM pragma_index_info('lookups_by_answer')").pluck().all()).toEqual(['fetched_at', 'query_id', 'status', 'candidate_count']);

      // Each query once: by each project's rows in order, then the answers no row names; its digest the key's first 64 bits.
      const queries = db.prepare('SELECT id, digest, query FROM queries ORDER BY id').safeIntegers(true).all() as { id: bigint; digest: bigint; query: string | null }[];
      const digestOf = (k: string) => BigInt.asIntN(64, BigInt(`0x${k.slice(0, 16)}`));
      expect(queries).toEqual([
        { id: 1n, digest: digestOf(key(ada)), query: '[["email_address","ada@example.com"]]' },
        { id: 2n, digest: digestOf(key(cy)), query: '[["email_address","cy@example.com"]]' },
        { id: 3n, digest: digestOf(key(bob)), query: '[["name","Bob Roe"],["company.name","Acme"]]' },
        { id: 4n, digest: digestOf('f'.repeat(64)), query: null },
        { id: 5n, digest: digestOf(key(refresh)), query: '[["social","ada"]]' },
      ]);
      // The digest is the one the app finds the query by.
      expect(queries.map((q) => q.digest).slice(0, 3)).toEqual([ada, cy, bob].map((q) => queryDigest(base, 'org', q)));

      // The rows and plan steps keep the id only, the same id for the same query in both projects.
      const columns = (table: string) => db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all();
      expect(columns('row_queries')).toEqual(['project_id', 'row_index', 'step', 'strategy', 'query_id']);
      expect(columns('row_status')).not.toContain('query_key');
      expect(columns('lookups')).toEqual(['query_id', 'fetched_at', 'status', 'candidate_count', 'facts', 'candidates', 'error', 'people', 'ranks']);
      expect(db.prepare('SELECT project_id, row_index, step, strategy, query_id FROM row_queries ORDER BY project_id, row_index, step').raw().all()).toEqual([
        [first, 0, 0, 'email', 1],
        [first, 1, 0, 'email', 2],
        [first, 1, 1, 'name+company', 3],
        [second, 0, 0, 'name+company', 3],
        [second, 1, 0, 'email', 1],
      ]);
      expect(db.prepare('SELECT project_id, row_index, state, query_id, fetched_at FROM row_status ORDER BY project_id, row_index').raw().all()).toEqual([
        [first, 0, 'to_review', 1, 1000],
        [first, 1, 'error', 3, null],
        [second, 0, 'pending', 3, null],
        [second, 1, 'no_candidates', 4, 900],
        [second, 2, 'no_query', null, null],
      ]);
      // Answers keyed by the id, read as they were stored, the query's text from `queries` (by today's code, which
      // needs the later migrations too).
      migrate(db);
      expect(getLookups(db, [1, 3, 5, 2], 0)).toEqual(
        new Map([
          [1, { queryId: 1, query: ada, fetchedAt: 1000, status: 'ok', candidates: [], error: null }],
          [3, { queryId: 3, query: bob, fetchedAt: 2000, status: 'error', candidates: null, error: { kind: 'server', message: 'boom' } }],
          [5, { queryId: 5, query: refresh, fetchedAt: 3000, status: 'ok', candidates: [], error: null }],
        ]),
      );
      expect([...getAnswerFacts(db, [1, 3, 5], 0).keys()]).toEqual([1, 5]);
      const indexColumns = (name: string) => db.prepare(`SELECT name FROM pragma_index_info('${name}')`).pluck().all();
      // Both made again by query id, then dropped: lookups_by_answer by migration 34, row_status_by_query by 32.
      expect(indexColumns('lookups_by_answer')).toEqual([]);
      expect(indexColumns('row_status_by_query')).toEqual([]);
      expect(db.prepare("SELECT count(*) FROM sqlite_temp_master WHERE name LIKE 'migrated%'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('leaves a folder as it was when the move fails part-way', () => {
    const file = join(tempFolder(), 'm.db');
    const db = new Database(file);
    try {
      migrate(db, upTo(27));
      db.prepare("INSERT INTO lookups (query_key, query, fetched_at, status) VALUES ('k', '{\"fields\":[]}', 1, 'ok')").run();
      const before = db.prepare('SELECT * FROM lookups').all();
      // A table in the way of one the swap makes after its first steps (the answers already moved): it stops there.
      db.exec('CREATE TABLE queries (x)');
      expect(() => migrate(db)).toThrow(/failed at step 28/);
      expect(db.pragma('user_version', { simple: true })).toBe(27);
      expect(db.prepare('SELECT * FROM lookups').all()).toEqual(before);
      expect(db.prepare("SELECT name FROM pragma_table_info('row_queries')").pluck().all()).toContain('query_key');
      // Nothing of the move is left beside the tables it read.
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'migration%'").pluck().all()).toEqual([]);
    } finally {
      db.close();
    }
  });
});

describe('a data folder from before migration 28, opened by the engine', () => {
  let tmp: ReturnType<typeof tempDir> | null = null;
  let engine: Engine | null = null;
  let sim: Simulator | null = null;
  afterEach(async () => {
    await engine?.close();
    engine = null;
    await sim?.close();
    sim = null;
    tmp?.remove();
    tmp = null;
  });

  it('stopped part-way and started again, reads the same (rows, review, text filter, export, cache) as before and as a copy moved in one go; copies its verdicts, undoes and refreshes', async () => {
    tmp = tempDir('matchdesk-m28-');
    const dataDir = join(tmp.dir, 'data');
    sim = await startSim({ people: 3000, seed: 7 });
    // Kept across the engine's restart, as the keychain would be.
    const secrets = new SessionSecretStore();
    engine = await openEngine(dataDir, { secrets });
    await connect(engine, sim);
    // People found by e-mail, by name and company at the next step, namesakes left to review, and nobody.
    const named = new Map<string, number>();
    for (const p of sim.dataset.people) named.set(p.name, (named.get(p.name) ?? 0) + 1);
    const namesakes = sim.dataset.people.filter((p) => named.get(p.name)! > 1 && p.jobs.some((j) => j.ended_at === null)).slice(0, 40);
    const people = [...findablePeople(sim).slice(0, 120), ...namesakes];
    const rows = people.map((p, i) => [p.name, currentCompany(p), i % 2 === 0 ? p.email_address : `gone.${i}@example.invalid`]);
    for (let i = 0; i < 5; i++) rows.push([`Qxv${'z'.repeat(i + 1)} Wkpj`, 'Qqqq Zzzz Holdings', '']);
    const sheet = writeCsv(join(tmp.dir, 'sheet.csv'), ['Name', 'Company', 'Email'], rows);
    const mapping = { fullName: 0, company: 1, email: 2 };
    const imported = async () => {
      const id = (await ok(engine!, 'projects.import', { file: sheet })).summary.id;
      await ok(engine!, 'mapping.save', { projectId: id, mapping, strategies: ['email', 'name+company'] });
      return id;
    };
    const projectId = await imported();
    expect((await runToEnd(engine, projectId)).status).toBe('done');
    // Decisions to keep, and one to undo after the move.
    const toReview = (await ok(engine, 'review.page', { projectId, states: ['to_review'], offset: 0, limit: 500 })).rows;
    expect(toReview.length).toBeGreaterThan(5);
    await ok(engine, 'decisions.choose', { projectId, rowIndex: toReview[0]!.rowIndex, rank: 2 });
    await ok(engine, 'decisions.reject', { projectId, rowIndex: toReview[1]!.rowIndex });
    await ok(engine, 'decisions.skip', { projectId, rowIndex: toReview[2]!.rowIndex });

    const seen = async (from: Engine = engine!) => ({
      page: await ok(from, 'review.page', { projectId, offset: 0, limit: 500 }),
      byText: await ok(from, 'review.page', { projectId, text: people[3]!.name, offset: 0, limit: 50 }),
      details: await Promise.all(toReview.slice(0, 4).map((r) => ok(from, 'review.row', { projectId, rowIndex: r.rowIndex }))),
      export: readFileSync((await ok(from, 'export.run', { projectId, format: 'csv', scope: 'all', candidates: true, destination: join(tmp!.dir, 'out.csv'), candidatesDestination: join(tmp!.dir, 'candidates.csv') })).path!, 'utf8'),
      candidates: readFileSync(join(tmp!.dir, 'candidates.csv'), 'utf8'),
      // Its size aside: the folder rewritten as before migration 29 holds its people's records as JSON text.
      cache: { ...(await ok(from, 'cache.stats', {})), bytes: 0 },
    });
    const before = await seen();
    expect(before.byText.total).toBeGreaterThan(0);
    await engine.close();
    engine = null;

    const dbPath = join(dataDir, 'matchdesk.sqlite');
    asVersion27(dbPath, sim.baseUrl, sim.orgId);
    // A copy to move in one go, to compare with.
    const oneGoDir = join(tmp.dir, 'one-go');
    mkdirSync(oneGoDir, { mode: 0o700 });
    copyFileSync(dbPath, join(oneGoDir, 'matchdesk.sqlite'));
    const asVersion27Reads = readAsVersion27(dbPath);

    // Stopped after three slices (as closing the app stops it): an app of version 27 still reads the folder as it was.
    const progress: MigrationProgress[] = [];
    const stopping = new Database(dbPath);
    const stop = new AbortController();
    const moving = migrateInSlices(stopping, ALL_MIGRATIONS, { sliceSize: 50, signal: stop.signal, onProgress: (p) => void (progress.push(p) === 3 && stop.abort()) });
    await expect(moving).rejects.toBeInstanceOf(MigrationStopped);
    stopping.close();
    expect(readAsVersion27(dbPath)).toEqual(asVersion27Reads);

    // The engine's start goes on from there to the end, and the folder reads as before, and as the one moved in one go.
    engine = await openEngine(dataDir, { secrets, onStartProgress: ({ done, total, phase }) => void progress.push({ version: 28, done, total, phase }) });
    const done = progress.map((p) => p.done);
    expect(done[3]).toBe(150);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ phase: 'finishing', done: progress[0]!.total });
    expect(await seen()).toEqual(before);
    const oneGo = await openEngine(oneGoDir, { secrets });
    try {
      expect(await seen(oneGo)).toEqual(before);
    } finally {
      await oneGo.close();
    }

    // The decision made before the move is undone after it.
    expect((await ok(engine, 'decisions.undo', { projectId })).row).toMatchObject({ rowIndex: toReview[2]!.rowIndex, state: 'to_review' });

    // The sheet again: every answer comes from the cache, and the verdicts are copied from the migrated project.
    sim.resetCounters();
    const again = await imported();
    const copies: number[] = [];
    engine.on('job.progress', (p) => {
      if (p.kind === 'verdictCopy' && p.projectId === again) copies.push(p.done);
    });
    const end = await runToEnd(engine, again);
    expect(end).toMatchObject({ status: 'done', calls: 0 });
    expect(sim.counters().findCalls).toBe(0);
    expect(Math.max(...copies)).toBeGreaterThan(0);
    const outcome = async (id: number) => (await ok(engine!, 'review.page', { projectId: id, offset: 0, limit: 500 })).rows.map((r) => [r.rowIndex, r.label, r.confidence]);
    expect(await outcome(again)).toEqual(await outcome(projectId));

    // A refresh asks about every matched person again and brings the rows up to date.
    await ok(engine, 'refresh.start', { projectId });
    const refreshed = (await engine.refreshSettled(projectId))!;
    expect(refreshed.status).toBe('done');
    expect(refreshed.found).toBeGreaterThan(0);
    expect(refreshed.found).toBe(refreshed.peopleTotal);
  });
});

/**
 * Rewrites an engine's data folder in the layout versions 25 to 27 wrote (each of these tables made from those
 * migrations' own statements): the answers keyed by the query's key, with the query's FindQuery JSON; the plan steps
 * with their key, text and per-project id; the rows with their key beside that id.
 */
function asVersion27(file: string, baseUrl: string, orgId: string): void {
  const v27 = new Database(':memory:');
  migrate(v27, upTo(27));
  const tables = ['lookups', 'row_queries', 'row_status'];
  const schema = v27.prepare(`SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN (${tables.map(() => '?').join(', ')}) AND sql IS NOT NULL`).all(...tables) as {
    type: string;
    name: string;
    sql: string;
  }[];
  v27.close();
  const db = new Database(file);
  try {
    db.function('old_key', (text: unknown) => oldKey(baseUrl, orgId, pairsQuery(String(text))));
    db.function('find_query', (text: unknown) => JSON.stringify(pairsQuery(String(text))));
    db.transaction(() => {
      // Each of the app's keys is the key it had before: its first 64 bits are the query's digest.
      for (const { digest, query } of db.prepare('SELECT digest, query FROM queries').safeIntegers(true).all() as { digest: bigint; query: string }[]) {
        expect(BigInt.asIntN(64, BigInt(`0x${oldKey(baseUrl, orgId, pairsQuery(query)).slice(0, 16)}`))).toBe(digest);
      }
      db.exec(`
        CREATE TEMP TABLE local_ids AS
          SELECT project_id, query_id, row_number() OVER (PARTITION BY project_id ORDER BY min(seen)) - 1 AS local FROM (
            SELECT project_id, query_id, row_index * 16 + step AS seen FROM row_queries
            UNION ALL SELECT project_id, query_id, row_index * 16 + 15 FROM row_status WHERE query_id IS NOT NULL
          ) GROUP BY project_id, query_id;
        CREATE TEMP TABLE old_keys AS SELECT id, old_key(query) AS key, find_query(query) AS find, query FROM queries;
      `);
      const rowStatusColumns = (db.prepare("SELECT name FROM pragma_table_info('row_status')").pluck().all() as string[]).filter((c) => c !== 'query_id');
      for (const table of tables) db.exec(`ALTER TABLE ${table} RENAME TO ${table}_new`);
      for (const { type, name, sql } of schema) {
        // The indexes of the same names go with the tables they were moved with; made again once the rows are in.
        if (type === 'table') db.exec(sql);
        else db.exec(`DROP INDEX IF EXISTS ${name}`);
      }
      db.exec(`
        INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count, facts, candidates, error, people, ranks)
          SELECT k.key, k.find, l.fetched_at, l.status, l.candidate_count, l.facts, l.candidates, l.error, l.people, l.ranks
          FROM lookups_new AS l JOIN temp.old_keys AS k ON k.id = l.query_id ORDER BY l.rowid;
        INSERT INTO row_queries (project_id, row_index, step, strategy, query_key, query, query_id)
          SELECT rq.project_id, rq.row_index, rq.step, rq.strategy, k.key, k.query, i.local
          FROM row_queries_new AS rq JOIN temp.old_keys AS k ON k.id = rq.query_id
          JOIN temp.local_ids AS i ON i.project_id = rq.project_id AND i.query_id = rq.query_id;
        INSERT INTO row_status (${rowStatusColumns.join(', ')}, query_key, query_id)
          SELECT ${rowStatusColumns.map((c) => `rs.${c}`).join(', ')}, k.key, i.local
          FROM row_status_new AS rs LEFT JOIN temp.old_keys AS k ON k.id = rs.query_id
          LEFT JOIN temp.local_ids AS i ON i.project_id = rs.project_id AND i.query_id = rs.query_id;
        DROP TABLE lookups_new;
        DROP TABLE row_queries_new;
        DROP TABLE row_status_new;
        DROP TABLE queries;
        DROP TABLE query_cleanup;
        DROP TABLE query_removals;
        DROP TABLE shared_queries;
        DROP TABLE temp.local_ids;
        DROP TABLE temp.old_keys;
      `);
      for (const { type, sql } of schema) if (type === 'index') db.exec(sql);
      // People's records as JSON text, found again by the digest of that text (before migration 29).
      db.function('record_json', (read: unknown) => JSON.stringify(recordOf(String(read))));
      db.function('json_digest', { safeIntegers: true }, (text: unknown) => createHash('sha256').update(String(text)).digest().readBigInt64BE(0));
      // Records in blocks (migration 30) are read by personRecord alone.
      for (const id of db.prepare('SELECT id FROM people WHERE block IS NOT NULL').pluck().all() as number[]) {
        db.prepare('UPDATE people SET person = ?, block = NULL WHERE id = ?').run(JSON.stringify(personRecord(db, id)), id);
      }
      db.exec(`
        UPDATE people AS p SET person = record_json(${recordSql('p')}) WHERE typeof(p.person) = 'blob';
        UPDATE person_digests AS d SET digest = (SELECT json_digest(p.person) FROM people AS p WHERE p.id = d.id);
        DROP TABLE person_shapes;
        ALTER TABLE people DROP COLUMN block;
        ALTER TABLE people DROP COLUMN position;
        DROP TABLE person_blocks;
      `);
      db.pragma('user_version = 27');
    })();
    expect(db.prepare('SELECT count(*) FROM row_status WHERE query_id IS NOT NULL AND query_key IS NULL').pluck().get()).toBe(0);
  } finally {
    db.close();
  }
}

/** The tables migration 28 moves, as an app of version 27 reads them (the file opened read-only as that version). */
function readAsVersion27(file: string): unknown {
  const db = openDatabase(file, { readonly: true, migrations: upTo(27) });
  try {
    return ['lookups', 'row_queries', 'row_status'].map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw().all());
  } finally {
    db.close();
  }
}

function pairsQuery(text: string): FindQuery {
  return { fields: (JSON.parse(text) as [string, string][]).map(([field_name, search_term]) => ({ field_name, search_term })) };
}
