// Matched projects made once per test file and copied into each test's folder: importing, planning and running the
// sheet cost more than most of the tests that start from it. The project's plan and answers are keyed by the service's
// address, so each test's simulator answers on the port the copy was matched on; a bare listener holds that port
// between tests, so nothing else takes it.
import { cpSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import type { Engine, EngineOptions } from '../../../electron/engine/engine';
import { SessionSecretStore } from '../../../electron/engine/secrets';
import type { Simulator, SimulatorOptions } from '../../../electron/simulator';
import { connect, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../core/helpers';
import { HEADERS, truthSheet, type TruthRow } from './refresh-fixture';

/** What a template holds: its data folder, the port it was matched on, and its project. */
interface Template {
  dir: ReturnType<typeof tempDir>;
  port: number;
  holder: Server | null;
  profileId: string;
  projectId: number;
  sheet: TruthRow[];
}

export interface MatchedCopy {
  sim: Simulator;
  engine: Engine;
  projectId: number;
  sheet: TruthRow[];
}

/**
 * A project of truthSheet's rows (`counts`, each row `copies` times over) matched by e-mail on `sim`'s people, run to
 * the end: made at the first `copy` of those counts in the file, copied at every one.
 */
export class MatchedTemplates {
  private readonly made = new Map<string, Promise<Template>>();
  /** The template whose port this test's simulator answers on. */
  private lent: Template | null = null;

  constructor(private readonly sim: SimulatorOptions) {
    afterAll(async () => {
      for (const template of this.made.values()) {
        const { holder, dir } = await template;
        await new Promise((resolve) => (holder ? holder.close(resolve) : resolve(undefined)));
        dir.remove();
      }
    });
  }

  /**
   * The matched project copied into `dataDir`, opened by an engine (with `options`), and a simulator of its own on the
   * template's port; `secrets` are given the profile's secret, as the keychain would have it.
   */
  async copy(
    dataDir: string,
    counts: Parameters<typeof truthSheet>[1],
    options: { copies?: number; secrets?: SessionSecretStore; engine?: Partial<EngineOptions> } = {},
  ): Promise<MatchedCopy> {
    const { copies = 1, secrets = new SessionSecretStore() } = options;
    const key = JSON.stringify([counts, copies]);
    let made = this.made.get(key);
    if (!made) this.made.set(key, (made = this.make(counts, copies)));
    const template = await made;
    cpSync(join(template.dir.dir, 'data'), dataDir, { recursive: true });
    await new Promise((resolve) => template.holder!.close(resolve));
    template.holder = null;
    this.lent = template;
    const sim = await startSim({ ...this.sim, port: template.port });
    await secrets.set(template.profileId, sim.demo.clientSecret);
    const engine = await openEngine(dataDir, { secrets, ...options.engine });
    return { sim, engine, projectId: template.projectId, sheet: template.sheet };
  }

  /** Once the test's simulator is closed: its port is held again, for the next test's. */
  async release(): Promise<void> {
    if (this.lent) this.lent.holder = await hold(this.lent.port);
    this.lent = null;
  }

  private async make(counts: Parameters<typeof truthSheet>[1], copies: number): Promise<Template> {
    const dir = tempDir('matchdesk-matched-template-');
    const sim = await startSim(this.sim);
    const engine = await openEngine(join(dir.dir, 'data'));
    let made: Omit<Template, 'holder'>;
    try {
      const profile = await connect(engine, sim);
      const sheet = truthSheet(sim.dataset.people, { moved: 0, left: 0, again: 0, near_name: 0, nobody: 0, ...counts });
      const file = writeCsv(join(dir.dir, 'people.csv'), HEADERS, Array.from({ length: copies }, () => sheet.map((r) => r.cells)).flat());
      const projectId = (await ok(engine, 'projects.import', { file })).summary.id;
      await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1, company: 2 }, strategies: ['email'] });
      expect((await runToEnd(engine, projectId)).status).toBe('done');
      made = { dir, port: sim.port, profileId: profile.id, projectId, sheet };
    } finally {
      await engine.close();
      await sim.close();
    }
    return { ...made, holder: await hold(made.port) };
  }
}

/** A listener on 127.0.0.1:`port` that answers nothing: it keeps the port for a simulator to come. */
function hold(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
