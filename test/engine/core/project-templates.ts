// Projects made once per test file and copied into each test's folder: importing, planning and running a sheet cost
// more than most of the tests that start from it. A project's plan and answers are keyed by the service's address,
// so each test's simulator answers on the port its copy was made on; a bare listener holds that port between tests,
// so nothing else takes it.
import { cpSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { Engine, EngineOptions } from '../../../electron/engine/engine';
import { SessionSecretStore } from '../../../electron/engine/secrets';
import type { Simulator, SimulatorOptions } from '../../../electron/simulator';
import { connect, openEngine, startSim, tempDir } from './helpers';

/** What a template holds: its folder (the engine's data in `data`), the port it was made on, and what `make` said. */
interface Template<T> {
  dir: ReturnType<typeof tempDir>;
  port: number;
  holder: Server | null;
  profileId: string;
  made: T;
}

export interface TemplateCopy<T> {
  sim: Simulator;
  engine: Engine;
  /** The template's folder: files `make` wrote beside the data (read them, write nowhere in it). */
  dir: string;
  made: T;
}

/**
 * Templates a test file copies from, one per key: each made at the first `copy` of its key by `make`, given an engine
 * (on the folder's `data`, closed after) connected to a simulator of `sim`'s options.
 */
export class ProjectTemplates<K, T> {
  private readonly templates = new Map<string, Promise<Template<T>>>();
  /** The template whose port this test's simulator answers on. */
  private lent: Template<T> | null = null;

  constructor(
    private readonly sim: SimulatorOptions,
    private readonly make: (engine: Engine, sim: Simulator, dir: string, key: K) => Promise<T>,
  ) {
    afterAll(async () => {
      for (const template of this.templates.values()) {
        const { holder, dir } = await template;
        await new Promise((resolve) => (holder ? holder.close(resolve) : resolve(undefined)));
        dir.remove();
      }
    });
  }

  /**
   * Key's template copied into `dataDir`, opened by an engine (with `options.engine`), and a simulator of its own on
   * the template's port; `options.secrets` are given the profile's secret, as the keychain would have it.
   */
  async copy(dataDir: string, key: K, options: { secrets?: SessionSecretStore; engine?: Partial<EngineOptions> } = {}): Promise<TemplateCopy<T>> {
    const { secrets = new SessionSecretStore() } = options;
    const name = JSON.stringify(key);
    let made = this.templates.get(name);
    if (!made) this.templates.set(name, (made = this.build(key)));
    const template = await made;
    cpSync(join(template.dir.dir, 'data'), dataDir, { recursive: true });
    await new Promise((resolve) => template.holder!.close(resolve));
    template.holder = null;
    this.lent = template;
    const sim = await startSim({ ...this.sim, port: template.port });
    await secrets.set(template.profileId, sim.demo.clientSecret);
    const engine = await openEngine(dataDir, { secrets, ...options.engine });
    return { sim, engine, dir: template.dir.dir, made: template.made };
  }

  /** Once the test's simulator is closed: its port is held again, for the next test's. */
  async release(): Promise<void> {
    if (this.lent) this.lent.holder = await hold(this.lent.port);
    this.lent = null;
  }

  private async build(key: K): Promise<Template<T>> {
    const dir = tempDir('matchdesk-template-');
    const sim = await startSim(this.sim);
    const engine = await openEngine(join(dir.dir, 'data'));
    let template: Omit<Template<T>, 'holder'>;
    try {
      const profile = await connect(engine, sim);
      template = { dir, port: sim.port, profileId: profile.id, made: await this.make(engine, sim, dir.dir, key) };
    } finally {
      await engine.close();
      await sim.close();
    }
    return { ...template, holder: await hold(template.port) };
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
