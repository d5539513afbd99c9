import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator, type Simulator } from '../../simulator';

/** The fixed id of the demo profile, so starting the demo again refreshes it instead of adding another. */
export const DEMO_PROFILE_ID = 'demo-local-simulator';
export const DEMO_PROFILE_NAME = 'Demo (local simulator)';
export const DEMO_PROJECT_NAME = 'Demo: sample people';
export const DEMO_SHEET = join('demo', 'sample-people.csv');

/**
 * A port tried first, so the demo service keeps its address across restarts and the demo project's cached
 * answers stay valid (the address is part of every cache key). Any free port when it is taken.
 */
const PREFERRED_PORT = 47_613;

/**
 * The demo world's one step on (simulator/epochs.ts): of the people with a current job, this share end it, most
 * starting elsewhere and some leaving. Seeded, so every session's demo moves the same people the same way.
 */
const DEMO_EPOCHS = { share: 0.15, seed: 1 };
/** More than the demo world's people, so the demo shows its credits in the cost preview and never runs out. */
const DEMO_CREDITS = 50_000;

/**
 * The simulator behind "Try with demo data": seeded people, a little latency so progress is visible, a credit budget,
 * and a world that moves on before the first refresh.
 */
export class DemoService {
  private simulator: Simulator | null = null;
  private starting: Promise<Simulator> | null = null;

  get running(): Simulator | null {
    return this.simulator;
  }

  start(): Promise<Simulator> {
    if (this.simulator) return Promise.resolve(this.simulator);
    this.starting ??= (async () => {
      const options = { people: 20_000, seed: 1, latencyMs: 30, creditBudget: DEMO_CREDITS, epochs: DEMO_EPOCHS };
      let sim: Simulator;
      try {
        sim = await startSimulator({ ...options, port: PREFERRED_PORT });
      } catch {
        sim = await startSimulator({ ...options, port: 0 });
      }
      this.simulator = sim;
      return sim;
    })().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /**
   * Moves the demo world on by its one epoch, when it has not yet: called as a refresh of the demo starts, so the
   * first refresh a user runs finds who moved and who left. Later refreshes (and a restarted demo, whose world steps
   * on the same way) see that same world.
   */
  moveOnForRefresh(): void {
    const sim = this.simulator;
    if (sim && sim.epoch() === 0) sim.advance();
  }

  async close(): Promise<void> {
    const sim = this.simulator ?? (this.starting ? await this.starting.catch(() => null) : null);
    this.simulator = null;
    await sim?.close();
  }
}

/**
 * The folder holding `demo/sample-people.csv`: the one a host names, else a `resources` folder found by walking
 * up from this module (the repo, or the built app's folder), else one beside the working directory or in
 * Electron's resources path of a packaged app.
 */
export function findResourcesDir(given?: string): string | null {
  if (given) return given;
  const starts: string[] = [];
  try {
    starts.push(dirname(fileURLToPath(import.meta.url)));
  } catch {
    // A bundle without import.meta.url: the other places below still apply.
  }
  starts.push(process.cwd());
  for (const start of starts) {
    let dir = start;
    for (let i = 0; i < 6; i++) {
      const candidate = join(dir, 'resources');
      if (existsSync(join(candidate, DEMO_SHEET))) return candidate;
      const parent = resolve(dir, '..');
      if (parent === dir) break;
      dir = parent;
    }
  }
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  if (packaged && existsSync(join(packaged, DEMO_SHEET))) return packaged;
  return null;
}
