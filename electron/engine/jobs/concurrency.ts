// Which jobs may run together on a project, in one table the handlers ask before any work starts.
import type { JobKind } from '../../../shared/contract';
import { EngineError } from '../engine-errors';

/** What a job asked for does when another is under way: `refuse` (busy), `wait` for it to end, or `cancel` it first. */
export type Overlap = 'refuse' | 'wait' | 'cancel';

/** What the user may ask that is not itself a job but must not overlap some: a single decision, deleting a project. */
export type Action = JobKind | 'decide' | 'delete';

/** Jobs that rewrite a project's rows a slice at a time: while one goes, nothing else that writes them may start. */
const REWRITERS = { cacheClear: 'refuse', plan: 'refuse', accept: 'refuse', undo: 'refuse' } as const;
/** A run and the copy of verdicts it runs as its first step: both write the project's rows. */
const RUNNING = { run: 'refuse', verdictCopy: 'refuse' } as const;

/**
 * OVERLAP[asked][underWay]; a pair not written runs together. A run and a refresh both write a project's rows, one at
 * a time; a decision waits for an accept or undo rather than be refused, as it did when those were one transaction.
 */
export const OVERLAP: Record<Action, Partial<Record<JobKind, Overlap>>> = {
  plan: { ...REWRITERS, ...RUNNING, refresh: 'refuse' },
  run: { ...REWRITERS, ...RUNNING, refresh: 'refuse' },
  refresh: { ...REWRITERS, ...RUNNING, refresh: 'refuse' },
  accept: { accept: 'wait', undo: 'wait' },
  undo: { accept: 'wait', undo: 'wait' },
  learn: { accept: 'wait', undo: 'wait' },
  decide: { accept: 'wait', undo: 'wait' },
  // Clearing the cache sends rows back to be asked again: deleting a project gone or not is the same to it.
  delete: { plan: 'refuse', accept: 'refuse', undo: 'refuse', run: 'cancel', refresh: 'cancel' },
  // Clearing the cache rewrites every project's rows: it is asked with the jobs of all of them.
  cacheClear: { ...RUNNING, refresh: 'refuse', plan: 'refuse' },
  import: {},
  export: {},
  // Asked by nobody: a run opens it as its first step, let in by the run's own admission (runs/matching-run.ts copyFirst).
  verdictCopy: {},
  textIndex: {},
  // Answers stored by an older version move a slice at a time while the engine is idle: nothing waits for them.
  answerMove: {},
};

/** The order refusals are looked at in, so the first word the user reads names the widest reason. */
const FIRST_SAID: JobKind[] = ['cacheClear', 'plan', 'accept', 'undo', 'run', 'refresh'];

/** The words a refusal says for the job under way, of the project named. */
function busyWords(underWay: JobKind, name: string | null, asked: Action): string {
  const of = name === null ? 'this project' : `"${name}"`;
  switch (underWay) {
    case 'cacheClear':
      return 'The cache is being cleared. Try again in a moment.';
    case 'plan':
      return 'This project is being prepared (its queries are being planned). Try again in a moment.';
    case 'accept':
      return "This project's confident rows are being accepted. Try again in a moment.";
    case 'undo':
      return "This project's last action is being undone. Try again in a moment.";
    case 'verdictCopy':
      return asked === 'cacheClear'
        ? `A run of ${of} is copying verdicts from another project of its sheet. Let it finish (or pause it) before clearing the cache.`
        : `A run of ${of} is going (copying verdicts from another project of its sheet). Pause or cancel it first.`;
    case 'run':
    case 'refresh':
      return asked === 'cacheClear'
        ? `A ${underWay} of ${of} is going. Let it finish (or pause it) before clearing the cache.`
        : `A ${underWay} of ${of} is ${asked === underWay ? 'already ' : ''}going. Pause or cancel it first.`;
    default:
      return `A ${underWay} of ${of} is going. Try again in a moment.`;
  }
}

export interface Admission {
  /** Jobs under way to wait for before starting. */
  wait: JobKind[];
  /** Jobs under way to cancel before starting. */
  cancel: JobKind[];
}

/**
 * What `asked` must do given the kinds under way on its project (and the engine-wide ones, clearing the cache):
 * throws a busy EngineError when the table refuses, else says what to wait for and what to cancel.
 */
export function admit(asked: Action, underWay: Iterable<JobKind>, projectName: string | null = null): Admission {
  const rules = OVERLAP[asked];
  const present = new Set(underWay);
  for (const kind of [...FIRST_SAID, ...present]) {
    if (present.has(kind) && rules[kind] === 'refuse') throw new EngineError('busy', busyWords(kind, projectName, asked));
  }
  const of = (overlap: Overlap) => [...present].filter((kind) => rules[kind] === overlap);
  return { wait: of('wait'), cancel: of('cancel') };
}

/** What is under way, as the table needs to know it: the kinds going on a project, and how to wait for or cancel one. */
export interface UnderWay {
  /** The kinds going on the project, with the engine-wide ones (clearing the cache); null: only the engine-wide ones. */
  kinds(projectId: number | null): JobKind[];
  /** Resolves once the project's job of that kind has ended, however it ended. */
  settled(projectId: number, kind: JobKind): Promise<unknown>;
  cancel(projectId: number, kind: JobKind): Promise<unknown>;
}

/** How a queued job enters: its signal, and what it does the moment it may go. */
export interface Entry {
  /** Aborted when the queued job is cancelled: it stops waiting and starts nothing. */
  signal?: AbortSignal;
  /** Called in the same turn as the last look at the table, so nothing else may start in between (the job goes running). */
  admitted?: () => void;
}

/**
 * Lets `asked` start on the project as the table says: refused (busy), or once what it waits for has ended (looked at
 * again after, as another may have started meanwhile) and what it cancels is cancelled.
 */
export async function enter(asked: Action, projectId: number, projectName: string, underWay: UnderWay, entry: Entry = {}): Promise<void> {
  const { signal } = entry;
  const going = () => underWay.kinds(projectId);
  for (const kind of admit(asked, going(), projectName).cancel) await underWay.cancel(projectId, kind);
  for (let waits = admit(asked, going(), projectName).wait; waits.length > 0; waits = admit(asked, going(), projectName).wait) {
    for (const kind of waits) await untilSettled(underWay.settled(projectId, kind), signal);
  }
  entry.admitted?.();
}

/** Waits for `settled`, or throws `cancelled` once the waiting job is cancelled. */
async function untilSettled(settled: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return void (await settled);
  let onAbort = () => undefined as void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new EngineError('cancelled', 'Cancelled while it waited its turn: nothing was changed.'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([settled, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
