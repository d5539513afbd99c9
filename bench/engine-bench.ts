// The engine side of the benchmark, through the facade exactly as a host drives it (engine.call + events).
import { join } from 'node:path';
import type { CallInput, CallName, CallOutput, ProjectDetail, RefreshProgress, ReviewPage, RunProgress } from '../shared/contract';
import type { RowState } from '../shared/model';
import { detailOf } from '../shared/job-detail';
import { createEngine, type Engine, type EngineOptions } from '../electron/engine/engine';
import { SessionSecretStore } from '../electron/engine/secrets';
import { SHEET_MAPPING } from './sheet-generator';
import type { SimulatorReady } from './simulator-process';

export class BenchFailure extends Error {
  override readonly name = 'BenchFailure';
}

export type Log = (line: string) => void;

export class EngineBench {
  private constructor(
    readonly engine: Engine,
    private readonly log: Log,
  ) {}

  /** `engine`: options beyond the bench's (profile-step turns the verdict worker off with them). */
  static async open(dataDir: string, service: SimulatorReady, concurrency: number, log: Log, engine: Partial<EngineOptions> = {}): Promise<EngineBench> {
    const opened = await createEngine({ dataDir, host: 'cli', secrets: new SessionSecretStore(), exportDir: join(dataDir, 'exports'), ...engine });
    const bench = new EngineBench(opened, log);
    // The profile first, so saving the mapping plans the queries for this service at once (no re-plan before the run).
    const profile = await bench.call('profiles.save', {
      name: 'Bench simulator',
      baseUrl: service.baseUrl,
      orgId: service.orgId,
      kind: 'service_account',
      login: service.clientId,
      secret: service.clientSecret,
      sessionOnly: true,
    });
    await bench.call('profiles.select', { id: profile.id });
    await bench.call('settings.update', { concurrency });
    return bench;
  }

  async call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>> {
    const result = await this.engine.call(name, input);
    if (!result.ok) throw new BenchFailure(`${name} failed (${result.error.kind}${result.error.code ? `/${result.error.code}` : ''}): ${result.error.message}`);
    return result.value as CallOutput<K>;
  }

  /** Imports a sheet through projects.import: rows read and stored, columns guessed; the queries are planned later. */
  async importSheet(file: string, name: string): Promise<{ project: ProjectDetail; seconds: number; storedSeconds: number }> {
    let last = 0;
    // The last progress event comes once every row is stored, before the columns are guessed.
    let storedAt = Number.NaN;
    const off = this.engine.on('job.progress', (job) => {
      const p = detailOf(job, 'import');
      if (p === null) return;
      storedAt = performance.now();
      if (p.rowsRead - last >= 25_000) {
        last = p.rowsRead;
        this.log(`    ${p.rowsRead.toLocaleString('en-US')} rows read`);
      }
    });
    const started = performance.now();
    let project: ProjectDetail;
    try {
      project = await this.call('projects.import', { file, name });
    } finally {
      off();
    }
    const seconds = (performance.now() - started) / 1000;
    return { project, seconds, storedSeconds: (storedAt - started) / 1000 };
  }

  /**
   * The user confirms the mapping (mapping.save), which plans every row's queries: the sheet's own columns, so
   * it is the detected mapping unless detection missed one (mappingFixed).
   */
  async saveMapping(detail: ProjectDetail): Promise<{ project: ProjectDetail; seconds: number; mappingFixed: boolean }> {
    const wanted = JSON.stringify(SHEET_MAPPING);
    const mappingFixed = JSON.stringify(detail.mapping) !== wanted;
    if (mappingFixed) this.log(`    detected mapping ${JSON.stringify(detail.mapping)} differs from ${wanted}: saving the intended one`);
    const started = performance.now();
    const project = await this.call('mapping.save', { projectId: detail.summary.id, mapping: SHEET_MAPPING, strategies: ['email', 'social', 'name+company'] });
    return { project, seconds: (performance.now() - started) / 1000, mappingFixed };
  }

  /** run.start, then waits for the run's job (job.progress) to say the run stopped. */
  async runToEnd(projectId: number): Promise<{ progress: RunProgress; seconds: number }> {
    let lastLog = 0;
    let resolveEnd!: (p: RunProgress) => void;
    const ended = new Promise<RunProgress>((resolve) => (resolveEnd = resolve));
    const off = this.engine.on('job.progress', (job) => {
      const p = detailOf(job, 'run', projectId);
      if (p === null) return;
      if (p.status !== 'running') resolveEnd(p);
      else if (performance.now() - lastLog > 2000) {
        lastLog = performance.now();
        this.log(`    ${p.queriesDone.toLocaleString('en-US')}/${p.queriesTotal.toLocaleString('en-US')} queries, ${p.rowsResolved.toLocaleString('en-US')} rows resolved, ${p.calls} calls`);
      }
    });
    const started = performance.now();
    try {
      const first = await this.call('run.start', { projectId });
      if (first.status !== 'running') resolveEnd(first);
      const progress = await ended;
      const seconds = (performance.now() - started) / 1000;
      if (progress.status !== 'done') throw new BenchFailure(`The run ended "${progress.status}": ${progress.message ?? 'no message'}`);
      return { progress, seconds };
    } finally {
      off();
    }
  }

  /** refresh.start, then waits for the refresh's job (job.progress) to say it stopped. */
  async refreshToEnd(projectId: number): Promise<{ progress: RefreshProgress; seconds: number }> {
    let resolveEnd!: (p: RefreshProgress) => void;
    const ended = new Promise<RefreshProgress>((resolve) => (resolveEnd = resolve));
    const off = this.engine.on('job.progress', (job) => {
      const p = detailOf(job, 'refresh', projectId);
      if (p !== null && p.status !== 'running') resolveEnd(p);
    });
    const started = performance.now();
    try {
      const first = await this.call('refresh.start', { projectId });
      if (first.status !== 'running') resolveEnd(first);
      const progress = await ended;
      if (progress.status !== 'done') throw new BenchFailure(`The refresh ended "${progress.status}": ${progress.message ?? 'no message'}`);
      return { progress, seconds: (performance.now() - started) / 1000 };
    } finally {
      off();
    }
  }

  async timed<K extends CallName>(name: K, input: CallInput<K>): Promise<{ value: CallOutput<K>; seconds: number }> {
    const started = performance.now();
    const value = await this.call(name, input);
    return { value, seconds: (performance.now() - started) / 1000 };
  }

  /**
   * A reviewer's 200-row pages of the review table (the renderer's page), `fetches` of them in five kinds, each kind's
   * offsets spread over its filter's total: unfiltered, by state, by text, by what the last refresh found (a job
   * change, changed at the refresh), and the queue's page again after each decision (a row skipped: the review keeps
   * its counts and lists through it, review-page.ts withReviewMoves). The decisions are undone at the end.
   * Milliseconds per fetch by kind, and per decision; `cpuByKind`: the CPU milliseconds of the engine's thread (this
   * one) per fetch, so a page slow by its own work shows apart from one that waited on a busy machine.
   */
  async reviewPages(
    projectId: number,
    fetches: number,
  ): Promise<{ all: number[]; byKind: Record<string, number[]>; cpuByKind: Record<string, number[]>; decisionsMs: number[]; states: RowState[]; texts: string[] }> {
    const limit = 200;
    const perKind = Math.ceil(fetches / 5);
    const byKind: Record<string, number[]> = { unfiltered: [], state: [], text: [], refresh: [], decided: [] };
    const cpuByKind: Record<string, number[]> = { unfiltered: [], state: [], text: [], refresh: [], decided: [] };
    const first = await this.call('review.page', { projectId, offset: 0, limit });
    // The state with the most rows among those a reviewer filters on.
    const reviewStates: RowState[] = ['to_review', 'auto', 'no_candidates'];
    const state = reviewStates.reduce((a, b) => (first.counts[b] > first.counts[a] ? b : a));
    const texts = ['smith', 'gmail', 'engineer', 'linkedin.com/in/ma', 'García', 'manager'];
    const totals = new Map<string, number>([['{}', first.total]]);
    /** One page of `filter`, spread over its rows by `i` of `count` once its first page told its total. */
    const page = async (kind: string, filter: Partial<CallInput<'review.page'>>, i: number, count: number) => {
      const fkey = JSON.stringify(filter);
      const total = totals.get(fkey);
      const offset = total === undefined ? 0 : Math.max(0, Math.floor(((total - limit) * i) / Math.max(1, count - 1)));
      const started = performance.now();
      const cpu = process.threadCpuUsage();
      const got: ReviewPage = await this.call('review.page', { projectId, offset, limit, ...filter });
      byKind[kind]!.push(performance.now() - started);
      const used = process.threadCpuUsage(cpu);
      cpuByKind[kind]!.push((used.user + used.system) / 1000);
      totals.set(fkey, got.total);
    };
    const spread = async (kind: string, count: number, filters: Partial<CallInput<'review.page'>>[]) => {
      for (let i = 0; i < count; i++) await page(kind, filters[i % filters.length]!, i, count);
    };
    await spread('unfiltered', perKind, [{}]);
    await spread('state', perKind, [{ states: [state] }]);
    await spread('text', perKind, texts.map((text) => ({ text })));
    await spread('refresh', perKind, [{ jobChanges: ['moved'] }, { changedAtLastRefresh: true }]);
    // The queue of rows to review, a row skipped and its page read again each time, as a reviewer's keys do.
    const queue = (await this.call('review.page', { projectId, states: ['to_review'], offset: 0, limit: 500 })).rows;
    const decided = Math.min(fetches - 4 * perKind, queue.length);
    const decisionsMs: number[] = [];
    for (let i = 0; i < decided; i++) {
      const started = performance.now();
      await this.call('decisions.skip', { projectId, rowIndex: queue[i]!.rowIndex });
      decisionsMs.push(performance.now() - started);
      await page('decided', { states: ['to_review'] }, i, decided);
    }
    for (let i = 0; i < decided; i++) await this.call('decisions.undo', { projectId });
    return { all: Object.values(byKind).flat(), byKind, cpuByKind, decisionsMs, states: [state], texts };
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}
