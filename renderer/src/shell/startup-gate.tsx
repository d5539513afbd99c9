import { useEffect, useState, type ReactNode } from 'react';
import { startupStateSchema, type StartupState } from '../../../shared/contract';
import { api } from '../api';
import { formatCount } from '../ui/format';

/** How often the window asks how far the start is. */
const POLL_MS = 400;

const PHASE_WORDS: Record<string, string> = {
  rows: 'Moving the rows and their plans',
  answers: 'Moving the saved answers',
  finishing: 'Finishing',
};

/**
 * Shows the app once the engine has started. Until then, while it brings a data folder an older version made up to
 * this version (which can take a minute at a million rows), a screen says how far that is instead of a blank window.
 * Polled rather than sent as an event: the engine, its jobs and their events do not exist yet.
 */
export function StartupGate({ children }: { children: ReactNode }) {
  const [state, setState] = useState<StartupState>({ state: 'starting' });

  useEffect(() => {
    if (state.state === 'ready' || state.state === 'failed') return;
    let live = true;
    const timer = setTimeout(
      () => {
        void api.call('app.startup', {}).then(
          (result) => {
            if (!live) return;
            if (!result.ok) return setState({ state: 'failed', message: result.error.message });
            const parsed = startupStateSchema.safeParse(result.value);
            setState(parsed.success ? parsed.data : { state: 'failed', message: `The engine's start said something this window cannot read: ${parsed.error.message}` });
          },
          (thrown: unknown) => {
            if (live) setState({ state: 'failed', message: thrown instanceof Error ? thrown.message : String(thrown) });
          },
        );
      },
      state.state === 'starting' ? 0 : POLL_MS,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [state]);

  if (state.state === 'ready') return children;
  return (
    <main className="startup">
      <section className="card startup__card" aria-labelledby="startup-title">
        {state.state === 'failed' ? (
          <>
            <h1 id="startup-title">Matchdesk could not start</h1>
            <p role="alert">{state.message}</p>
          </>
        ) : state.state === 'updating' ? (
          <UpdatingFolder done={state.done} total={state.total} phase={state.phase} />
        ) : (
          <h1 id="startup-title">Starting Matchdesk…</h1>
        )}
      </section>
    </main>
  );
}

function UpdatingFolder({ done, total, phase }: { done: number; total: number; phase: string }) {
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  return (
    <>
      <h1 id="startup-title">Updating the data folder to this version</h1>
      <p className="muted">
        A data folder from an earlier Matchdesk is being moved to the layout of this one. You can close the window: the next start goes on where
        this one stopped, and until the update is done an earlier Matchdesk still opens the folder as it was.
      </p>
      <div className="progress" role="progressbar" aria-label="Data folder update" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} data-testid="startup-progress">
        <div className="progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <p role="status">
        {PHASE_WORDS[phase] ?? phase}: {percent}% ({formatCount(done)} of {formatCount(total)} rows and answers)
      </p>
    </>
  );
}
