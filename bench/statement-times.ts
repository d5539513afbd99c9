// Every SQLite statement this thread runs, timed by its SQL (the thread's own CPU time, so other processes' load does
// not count, and its wall time), and what each commit wrote to the WAL: where a step's time inside SQLite goes,
// statement by statement (bench/profile-step.ts --statement-times). A CPU profile shows that time only as the self
// time of whichever JavaScript function ran the statement. Reading the thread's clock costs about a microsecond a
// statement, which the step's CPU then includes.
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';
import { num } from './report';

interface Tally {
  calls: number;
  /** This thread's CPU time in the statement. */
  ms: number;
  /** Its wall time: more than its CPU when the thread waited on the disk or for a core. */
  wallMs: number;
  /** Rows the statement changed (run's `changes`), summed. */
  changes: number;
}

interface Commits {
  count: number;
  /** CPU time of the COMMITs (a checkpoint included when one ran). */
  ms: number;
  /** Rows changed by the statements of the committed transactions. */
  changes: number;
  /** WAL frames (pages) the commits appended. */
  frames: number;
  /** Commits whose transaction stored a call's answers (an upsert into `lookups`). */
  calls: { count: number; ms: number; changes: number; frames: number };
  /** Commits that checkpointed the WAL into the database file (SQLite's automatic checkpoint, run by a COMMIT). */
  checkpoints: { count: number; ms: number };
}

/** A table's or index's WAL frames over a step: how many rewrote a page an earlier commit wrote, how many pages the checkpoints copied. */
interface TreeFrames {
  frames: number;
  rewrites: number;
  checkpointed: number;
}

type Method = (this: Statement, ...args: unknown[]) => unknown;

/**
 * Times every statement of every connection of this thread from now on, by patching better-sqlite3's Statement and
 * Database methods (process-wide, this thread only: the verdict worker's reads are its own). Start it before the
 * engine opens: the damage watch keeps the methods it finds when a statement is prepared.
 */
export class StatementTimes {
  private readonly bySql = new Map<string, Tally>();
  private commits: Commits = emptyCommits();
  /** The transaction in progress: rows changed, and whether it stored an answer. */
  private open = { changes: 0, storedAnswer: false };
  /** The WAL's last frame after the last commit, per database file (read from its -shm, the wal-index header). */
  private readonly lastFrame = new Map<string, number>();
  /** How many times each page of the main database file was written to the WAL by a commit (its frames' page numbers). */
  private readonly pageFrames = new Map<number, number>();
  /** How many times each page was copied into the database file by a checkpoint: once per WAL it was in. */
  private readonly pageCheckpoints = new Map<number, number>();
  /** The pages in the WAL since its last checkpoint: a checkpoint copies each once, however often it was written. */
  private readonly walCycle = new Set<number>();
  private mainFile: string | null = null;

  private constructor() {}

  static start(): StatementTimes {
    const times = new StatementTimes();
    const probe = new Database(':memory:');
    const statementPrototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<'run' | 'get' | 'all' | 'iterate', Method>;
    probe.close();
    const { run, get, all, iterate } = statementPrototype;
    statementPrototype.run = function (...args) {
      return times.timed(this, run, args, true);
    };
    statementPrototype.get = function (...args) {
      return times.timed(this, get, args, false);
    };
    statementPrototype.all = function (...args) {
      return times.timed(this, all, args, false);
    };
    statementPrototype.iterate = function (...args) {
      const rows = times.timed(this, iterate, args, false) as { next: () => unknown };
      const next = rows.next.bind(rows);
      rows.next = () => times.timed(this, next, [], false);
      return rows;
    };
    const databasePrototype = Database.prototype as unknown as Record<'exec', (this: Database.Database, sql: string) => unknown>;
    const exec = databasePrototype.exec;
    databasePrototype.exec = function (sql: string) {
      const started = performance.now();
      const cpu = process.threadCpuUsage();
      try {
        return exec.call(this, sql);
      } finally {
        times.add(`exec: ${sql}`, cpuMs(cpu), performance.now() - started, 0);
      }
    };
    return times;
  }

  reset(): void {
    this.pageFrames.clear();
    this.pageCheckpoints.clear();
    this.walCycle.clear();
    this.bySql.clear();
    this.commits = emptyCommits();
    this.open = { changes: 0, storedAnswer: false };
  }

  /** The statements by total CPU time, the commits, and the WAL frames per commit. */
  report(top = 30): string[] {
    const all = [...this.bySql.entries()].sort((a, b) => b[1].ms - a[1].ms);
    const total = all.reduce((sum, [, t]) => sum + t.ms, 0);
    const wall = all.reduce((sum, [, t]) => sum + t.wallMs, 0);
    const lines = [
      `  statements: ${num(all.reduce((sum, [, t]) => sum + t.calls, 0))} run, CPU ${num(total)} ms in all (wall ${num(wall)} ms)`,
      '  | CPU ms | calls | µs a call | wall ms | rows changed | SQL |',
      '  | ---: | ---: | ---: | ---: | ---: | --- |',
    ];
    for (const [sql, t] of all.slice(0, top)) {
      lines.push(`  | ${num(t.ms)} | ${num(t.calls)} | ${num((t.ms * 1000) / t.calls, 1)} | ${num(t.wallMs)} | ${num(t.changes)} | ${sql.replace(/\s+/g, ' ').slice(0, 160)} |`);
    }
    const c = this.commits;
    const per = (what: { count: number; ms: number; changes: number; frames: number }, name: string) =>
      `  ${name}: ${num(what.count)}, ${num(what.ms)} ms (${num(what.ms / Math.max(1, what.count), 2)} ms each), ${num(what.changes / Math.max(1, what.count), 1)} rows changed and ${num(what.frames / Math.max(1, what.count), 1)} WAL pages each (${num(what.frames / Math.max(1, what.changes), 2)} pages a row)`;
    lines.push(per(c, 'commits'), per(c.calls, "  of which a call's answers"));
    lines.push(`    of which checkpointed the WAL: ${num(c.checkpoints.count)}, ${num(c.checkpoints.ms)} ms (${num(c.checkpoints.ms / Math.max(1, c.checkpoints.count), 1)} ms each)`);
    // Tables and indexes written less than once in 20 commits are left out.
    const byTree = this.framesByTree().filter(([, t]) => t.frames * 20 >= c.count);
    if (byTree.length > 0) {
      lines.push(`  WAL pages a commit, by table or index: ${byTree.map(([name, t]) => `${name} ${num(t.frames / c.count, 1)}`).join(', ')}`);
      // A page written again by a later commit (a partly filled tail, a row updated) against one written the first
      // time, and what the checkpoints copied of it into the database file: all three are bytes the disk takes.
      const sum = (key: keyof TreeFrames) => byTree.reduce((total, [, t]) => total + t[key], 0);
      lines.push(`  WAL pages in all ${num(sum('frames'))} (new ${num(sum('frames') - sum('rewrites'))}, written again ${num(sum('rewrites'))}), checkpointed ${num(sum('checkpointed'))}:`);
      lines.push('  | table or index | WAL pages | new | written again | checkpointed |', '  | --- | ---: | ---: | ---: | ---: |');
      for (const [name, t] of byTree) lines.push(`  | ${name} | ${num(t.frames)} | ${num(t.frames - t.rewrites)} | ${num(t.rewrites)} | ${num(t.checkpointed)} |`);
    }
    return lines;
  }

  /** `run`: the method is run(), whose result counts the rows changed. */
  private timed(statement: Statement, method: Method, args: unknown[], run: boolean): unknown {
    const { source } = statement;
    const commit = source === 'COMMIT';
    const begin = source.startsWith('BEGIN');
    if (begin) this.open = { changes: 0, storedAnswer: false };
    const backfilled = commit ? walBackfill(statement.database.name) : 0;
    const started = performance.now();
    const cpu = process.threadCpuUsage();
    const result = method.apply(statement, args);
    const ms = cpuMs(cpu);
    const wallMs = performance.now() - started;
    // SQLite's change count after a COMMIT is still the last write's.
    const changes = run && !commit && !begin ? (result as { changes: number }).changes : 0;
    this.add(source, ms, wallMs, changes);
    this.open.changes += changes;
    if (source.startsWith('INSERT INTO lookups')) this.open.storedAnswer = true;
    if (commit) this.committed(statement.database.name, ms, backfilled);
    return result;
  }

  /** The frames counted, by the table or index their page belongs to now (SQLite's dbstat), most first. */
  private framesByTree(): [string, TreeFrames][] {
    if (this.mainFile === null || this.pageFrames.size === 0) return [];
    const db = new Database(this.mainFile, { readonly: true, fileMustExist: true });
    const byTree = new Map<string, TreeFrames>();
    const count = (name: string, page: number) => {
      const frames = this.pageFrames.get(page);
      if (frames === undefined) return;
      const tree = byTree.get(name) ?? { frames: 0, rewrites: 0, checkpointed: 0 };
      tree.frames += frames;
      tree.rewrites += frames - 1;
      tree.checkpointed += this.pageCheckpoints.get(page) ?? 0;
      byTree.set(name, tree);
      this.pageFrames.delete(page);
    };
    try {
      for (const [page, name] of db.prepare('SELECT pageno, name FROM dbstat').raw().iterate() as IterableIterator<[number, string]>) count(name, page);
    } finally {
      db.close();
    }
    // Pages of no table or index now: the auto-vacuum's pointer map, free pages, pages past the file's end.
    for (const page of [...this.pageFrames.keys()]) count('(other)', page);
    return [...byTree.entries()].sort((a, b) => b[1].frames - a[1].frames);
  }

  private add(sql: string, ms: number, wallMs: number, changes: number): void {
    const tally = this.bySql.get(sql);
    if (tally) {
      tally.calls++;
      tally.ms += ms;
      tally.wallMs += wallMs;
      tally.changes += changes;
    } else this.bySql.set(sql, { calls: 1, ms, wallMs, changes });
  }

  /** `backfilled`: the frames checkpointed into the database before the commit. */
  private committed(file: string, ms: number, backfilled: number): void {
    const checkpointed = walBackfill(file) !== backfilled;
    if (checkpointed) {
      this.commits.checkpoints.count++;
      this.commits.checkpoints.ms += ms;
    }
    const frame = walFrame(file);
    const last = this.lastFrame.get(file) ?? 0;
    this.lastFrame.set(file, frame);
    // A WAL started over after a checkpoint counts its frames from its start.
    const first = frame >= last ? last : 0;
    const frames = frame - first;
    if (this.mainFile === null || this.mainFile === file) {
      this.mainFile = file;
      for (const page of walPages(file, first, frame)) {
        this.pageFrames.set(page, (this.pageFrames.get(page) ?? 0) + 1);
        this.walCycle.add(page);
      }
      // The automatic checkpoint runs in the COMMIT, after its frames are appended: it copies them too.
      if (checkpointed) {
        for (const page of this.walCycle) this.pageCheckpoints.set(page, (this.pageCheckpoints.get(page) ?? 0) + 1);
        this.walCycle.clear();
      }
    }
    const { changes, storedAnswer } = this.open;
    for (const tally of storedAnswer ? [this.commits, this.commits.calls] : [this.commits]) {
      tally.count++;
      tally.ms += ms;
      tally.changes += changes;
      tally.frames += frames;
    }
    this.open = { changes: 0, storedAnswer: false };
  }
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.threadCpuUsage(since);
  return (used.user + used.system) / 1000;
}

function emptyCommits(): Commits {
  return { count: 0, ms: 0, changes: 0, frames: 0, calls: { count: 0, ms: 0, changes: 0, frames: 0 }, checkpoints: { count: 0, ms: 0 } };
}

/** The page numbers of the WAL's frames `from` (exclusive) to `to`: each frame's header starts with its page's number. */
function walPages(file: string, from: number, to: number): number[] {
  if (to <= from) return [];
  let fd: number | null = null;
  try {
    fd = openSync(`${file}-wal`, 'r');
    const header = Buffer.alloc(32);
    if (readSync(fd, header, 0, 32, 0) !== 32) return [];
    const pageSize = header.readUInt32BE(8);
    const pages: number[] = [];
    const frameHeader = Buffer.alloc(4);
    for (let frame = from + 1; frame <= to; frame++) {
      if (readSync(fd, frameHeader, 0, 4, 32 + (frame - 1) * (24 + pageSize)) === 4) pages.push(frameHeader.readUInt32BE(0));
    }
    return pages;
  } catch {
    return [];
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The WAL's last valid frame: mxFrame of the wal-index header, at byte 16 of the -shm file. */
function walFrame(file: string): number {
  return walIndexWord(file, 16);
}

/** The WAL's frames checkpointed into the database so far: nBackfill, after the wal-index header's two copies. */
function walBackfill(file: string): number {
  return walIndexWord(file, 96);
}

/** A 32-bit word of the wal-index (the -shm file), in the machine's byte order (little-endian here); 0 without one. */
function walIndexWord(file: string, offset: number): number {
  if (file === ':memory:' || file === '') return 0;
  let fd: number | null = null;
  try {
    fd = openSync(`${file}-shm`, 'r');
    const word = Buffer.alloc(4);
    return readSync(fd, word, 0, 4, offset) === 4 ? word.readUInt32LE(0) : 0;
  } catch {
    return 0;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
