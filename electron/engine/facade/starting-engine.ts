// The engine as a window's host serves it from its first moment, before the engine exists: a data folder an older
// version made may take a while to bring up to this version (store/migrate.ts), and the window shows how far that is
// (`app.startup`) instead of staying blank. Every other call waits for the engine.
import type { CallName, CallResult, EventName, Events, StartupState } from '../../../shared/contract';
import { toContractError } from '../engine-errors';
import type { ContractEngine } from '../route-call';
import type { Engine, EngineOptions } from './engine-api';
import { mapKnownErrors } from './known-errors';

type Start = (opts: Pick<EngineOptions, 'onStartProgress' | 'signal'>) => Promise<Engine>;

export class StartingEngine implements ContractEngine {
  private state: StartupState = { state: 'starting' };
  private engine: Engine | null = null;
  private readonly listeners = new Set<{ event: EventName; listener: (payload: never) => void; off: (() => void) | null }>();
  private readonly stop = new AbortController();
  /** The engine once started; rejects with why it could not start (closing first stops the start). */
  readonly started: Promise<Engine>;

  constructor(start: Start) {
    this.started = start({ onStartProgress: (progress) => (this.state = progress), signal: this.stop.signal }).then(
      (engine) => {
        this.engine = engine;
        this.state = { state: 'ready' };
        for (const entry of this.listeners) entry.off = engine.on(entry.event, entry.listener as (payload: Events[EventName]) => void);
        return engine;
      },
      (error: unknown) => {
        this.state = { state: 'failed', message: error instanceof Error ? error.message : String(error) };
        throw error;
      },
    );
    // Whoever awaits `started` sees the failure; the calls answer it as a contract error.
    this.started.catch(() => undefined);
  }

  /** Where the start is, as `app.startup` answers it. */
  startup(): StartupState {
    return this.state;
  }

  async call<K extends CallName>(name: K, input: unknown): Promise<CallResult<K>> {
    if (name === 'app.startup') return { ok: true, value: this.state } as CallResult<K>;
    let engine: Engine;
    try {
      engine = await this.started;
    } catch (error) {
      return { ok: false, error: toContractError(error, [mapKnownErrors]) };
    }
    return engine.call(name, input);
  }

  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    const entry = { event, listener: listener as (payload: never) => void, off: this.engine ? this.engine.on(event, listener) : null };
    this.listeners.add(entry);
    return () => {
      entry.off?.();
      this.listeners.delete(entry);
    };
  }

  holdBackground(): () => void {
    return this.engine?.holdBackground() ?? (() => undefined);
  }

  /** Stops a start under way between two slices of its move (kept for the next start), or closes the engine. */
  async close(): Promise<void> {
    this.stop.abort();
    const engine = await this.started.catch(() => null);
    await engine?.close();
  }
}
