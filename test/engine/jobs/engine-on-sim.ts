// What the job tests start from: an engine on a data folder of its own, connected to a simulator, with sheets of
// people the simulator finds; all of it closed and removed after each test.
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { JobProgress } from '../../../shared/contract';
import type { Engine, EngineOptions } from '../../../electron/engine/engine';
import type { Simulator, SimulatorOptions } from '../../../electron/simulator';
import { connect, currentCompany, findablePeople, openEngine, startSim, tempDir, writeCsv } from '../core/helpers';

export class EngineOnSim {
  private tmp: ReturnType<typeof tempDir> | null = null;
  private sim: Simulator | null = null;
  private current: Engine | null = null;
  private options: Partial<EngineOptions> = {};

  constructor() {
    afterEach(async () => {
      await this.close();
      await this.sim?.close();
      this.tmp?.remove();
      [this.sim, this.tmp] = [null, null];
    });
  }

  /** The test's folder (the engine's data is in `data`, exports in `exports`). */
  get dir(): string {
    return (this.tmp ??= tempDir('matchdesk-jobs-')).dir;
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  get simulator(): Simulator {
    return this.sim!;
  }

  /** Starts the simulator (with `sim`), then opens the engine connected to it. */
  async start(sim: SimulatorOptions = {}, options: Partial<EngineOptions> = {}): Promise<Engine> {
    this.sim = await startSim(sim);
    this.options = { exportDir: join(this.dir, 'exports'), ...options };
    return this.open();
  }

  /** Opens the engine (again, after `close`) on the same folder, connected to the same simulator. */
  async open(): Promise<Engine> {
    this.current = await openEngine(this.dataDir, this.options);
    await connect(this.current, this.sim!);
    return this.current;
  }

  async close(): Promise<void> {
    await this.current?.close();
    this.current = null;
  }

  /** A sheet of `rows` people the simulator finds by name and company, repeated as needed; `note`: each row its own. */
  sheet(rows: number, note = false): string {
    const people = findablePeople(this.sim!);
    const cells = Array.from({ length: rows }, (_, i) => {
      const p = people[i % people.length]!;
      return note ? [p.name, currentCompany(p), `row ${i}`] : [p.name, currentCompany(p)];
    });
    return writeCsv(join(this.dir, `people-${rows}${note ? '-noted' : ''}.csv`), note ? ['Name', 'Company', 'Note'] : ['Name', 'Company'], cells);
  }
}

/** Every job.progress the engine tells from now on. */
export function jobEvents(engine: Engine): JobProgress[] {
  const events: JobProgress[] = [];
  engine.on('job.progress', (p) => events.push(p));
  return events;
}
