// What a host gives the engine when it opens it, and what it gets back: the engine's face to Electron, the browser
// host, the CLI and tests.
import type { CallInput, CallName, CallOutput, CallResult, EventName, Events, RefreshProgress, RunProgress, StartupProgress } from '../../../shared/contract';
import type { Clock } from '../clock';
import type { SecretStore } from '../secrets';

export interface EngineOptions {
  /** The database goes to `${dataDir}/matchdesk.sqlite`. */
  dataDir: string;
  host: 'electron' | 'web' | 'cli';
  /** Default: the OS keychain when it works here, else secrets for this session only. */
  secrets?: SecretStore;
  clock?: Clock;
  fetch?: typeof fetch;
  version?: string;
  /** Where export.run writes when no destination is given (the browser host turns the file into a download). */
  exportDir?: string;
  /** The folder holding demo/sample-people.csv; found beside the app or the repo when absent. */
  resourcesDir?: string;
  /** False: a run works out rows' verdicts on the engine's own thread instead of the verdict worker's (runs/verdict-thread.ts). */
  verdictWorker?: boolean;
  /**
   * Rows up to which the engine reads a figure or list that reads them all on its own thread: a refresh's changed rows
   * (default review/changed-rows.ts COUNTED_HERE), the cache's answers (store/lookups.ts CACHE_COUNTED_HERE), a
   * project's rows for the review's lists (review-page.ts LISTS_WALKED_HERE). More are read by a worker
   * (runs/reading-thread.ts) while the engine answers other calls. A host with readsElsewhere false (the CLI) reads them all itself.
   */
  readHereUpTo?: number;
  /** Rows (blank ones too) from which an export's matches are made on two threads (runs/export-halves.ts HALVES_FROM_ROWS). */
  exportHalvesFrom?: number;
  /**
   * How long closing waits for a run's and a refresh's calls in flight, and for a refresh's rows being brought up to
   * date, before leaving them to be resumed. Default 10 s.
   */
  closeGraceMs?: number;
  /** How often the engine looks for due watches and runs them; 0: never (the CLI's default: `refresh --due` does). */
  watchSweepMs?: number;
  /**
   * False: long reads are made on the engine's own thread and a deleted project's rows removed before the call
   * returns, for a host that waits for every answer and may exit as soon as it has it (the CLI's default).
   */
  readsElsewhere?: boolean;
  /** Told how far the start is while it brings a data folder an older version made up to this version. */
  onStartProgress?: (progress: StartupProgress) => void;
  /** Stops the start between two slices of that move (the app closing): the next start goes on from there. */
  signal?: AbortSignal;
}

/** What each host does unless told otherwise: the app and the browser host answer other calls meanwhile; the CLI waits. */
const HOST_DEFAULTS: Record<EngineOptions['host'], Required<Pick<EngineOptions, 'watchSweepMs' | 'readsElsewhere'>>> = {
  electron: { watchSweepMs: 5 * 60_000, readsElsewhere: true },
  web: { watchSweepMs: 5 * 60_000, readsElsewhere: true },
  cli: { watchSweepMs: 0, readsElsewhere: false },
};

export interface Engine {
  /** Parses input with the contract and never throws: every failure is a ContractError. */
  call<K extends CallName>(name: K, input: unknown): Promise<CallResult<K>>;
  /** The same calls without the envelope, for hosts and tests: parsed with the contract, typed errors thrown. */
  invoke<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>>;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
  /**
   * Holds background work (filling a text index) back while a host serves the user something that is not a call,
   * a download or an upload; returns the release. Background work gives the event loop back only between slices.
   */
  holdBackground(): () => void;
  /** Resolves when the project's current run has stopped (at once when none runs), with its final progress. */
  runSettled(projectId: number): Promise<RunProgress | null>;
  /** Resolves when the project's current refresh has stopped (at once when none runs), with its final progress. */
  refreshSettled(projectId: number): Promise<RefreshProgress | null>;
  /** Pauses runs cleanly (everything landed is committed), stops the demo simulator, closes the database. */
  close(): Promise<void>;
  readonly dbPath: string;
  /** What this start made private in the data folder (it was open to other users), for the host to show once; else null. */
  readonly privacyNotice: string | null;
}

/** The options with what the host does unless told otherwise filled in. */
export function withHostDefaults(opts: EngineOptions): EngineOptions & Required<Pick<EngineOptions, 'watchSweepMs' | 'readsElsewhere'>> {
  const defaults = HOST_DEFAULTS[opts.host];
  return { ...opts, watchSweepMs: opts.watchSweepMs ?? defaults.watchSweepMs, readsElsewhere: opts.readsElsewhere ?? defaults.readsElsewhere };
}
