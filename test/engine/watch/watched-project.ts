// What the watch tests start from: a project matched on a simulator and watched every 7 days, on a clock the test moves
// on, with the engine, the simulator and the temporary folder closed after each test.
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import type { WatchSummary } from '../../../shared/contract';
import { systemClock, type Clock } from '../../../electron/engine/clock';
import type { Engine, EngineOptions } from '../../../electron/engine/engine';
import { SessionSecretStore } from '../../../electron/engine/secrets';
import type { Simulator, SimulatorOptions } from '../../../electron/simulator';
import { connect, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../core/helpers';
import { HEADERS, truthSheet } from '../refresh/refresh-fixture';

export const DAY = 86_400_000;
const SERVICE: SimulatorOptions = { people: 3000, seed: 5 };

export interface WatchedOptions {
  /** How many of the sheet's people are still where it says, moved, or left (60, 20 and 10 unless said). */
  rows?: { still: number; moved: number; left: number };
  /** The simulator's credits; none given: no cap. */
  credits?: number | null;
  /** The watch's credit ceiling; none given: no ceiling. */
  creditCeiling?: number | null;
  engine?: Partial<EngineOptions>;
}

/** One test's watched project; `later` moves the clock on, as days pass. */
export class WatchedProject {
  private offset = 0;
  readonly clock: Clock;
  private tmp: ReturnType<typeof tempDir> | undefined;
  private sim: Simulator | undefined;
  private engine: Engine | undefined;

  /** `retryPauses: false`: the client asks again at once after a failed attempt, for tests where its pauses are not the point. */
  constructor(
    private readonly prefix: string,
    { retryPauses = true }: { retryPauses?: boolean } = {},
  ) {
    this.clock = { now: () => Date.now() + this.offset, sleep: retryPauses ? systemClock.sleep : async () => undefined };
    afterEach(async () => {
      await this.engine?.close();
      await this.sim?.close();
      this.tmp?.remove();
      [this.engine, this.sim, this.tmp] = [undefined, undefined, undefined];
    });
  }

  later(ms: number): void {
    this.offset += ms;
  }

  /** The project imported, matched and watched every 7 days; `scheduled`: when its first refresh is due. */
  async start(options: WatchedOptions = {}) {
    const { rows = { still: 60, moved: 20, left: 10 }, credits = null, creditCeiling = null } = options;
    this.tmp = tempDir(this.prefix);
    this.sim = await startSim({ ...SERVICE, creditBudget: credits });
    const secrets = new SessionSecretStore();
    const engine = (this.engine = await openEngine(join(this.tmp.dir, 'data'), { clock: this.clock, secrets, ...options.engine }));
    const profile = await connect(engine, this.sim);
    const sheet = truthSheet(this.sim.dataset.people, { ...rows, again: 0, near_name: 0, nobody: 0 });
    const detail = await ok(engine, 'projects.import', { file: writeCsv(join(this.tmp.dir, 'p.csv'), HEADERS, sheet.map((r) => r.cells)) });
    const projectId = detail.summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1, company: 2 }, strategies: detail.strategies });
    expect((await runToEnd(engine, projectId)).status).toBe('done');
    await ok(engine, 'watch.set', { projectId, everyDays: 7, creditCeiling });
    const scheduled = (await ok(engine, 'watch.list'))[0]!.nextRefreshAt;
    const watch = async (): Promise<WatchSummary> => (await ok(engine, 'watch.list'))[0]!;
    return { engine, sim: this.sim, projectId, profile, secrets, scheduled, watch };
  }

  /** Closes the simulator (its port then refuses connections) and gives back its port, for a later one to answer on. */
  async stopService(): Promise<number> {
    const port = Number(new URL(this.sim!.baseUrl).port);
    await this.sim!.close();
    this.sim = undefined;
    return port;
  }

  /** The service answering again on `port`, as the one stopped did unless `extra` says otherwise. */
  async startService(port: number, extra: SimulatorOptions = {}): Promise<Simulator> {
    this.sim = await startSim({ ...SERVICE, ...extra, port });
    return this.sim;
  }
}

/** Waits until `check` holds, asking every 10 ms; throws after 60 s (a hang, not slowness: a try meets real retry pauses). */
export async function until(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 6_000; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('still not so after 60 s');
}
