import type { ChildProcess } from 'node:child_process';
import { spawnBenchScript, stopChild } from './child-process';

export interface SimulatorReady {
  type: 'ready';
  baseUrl: string;
  orgId: string;
  clientId: string;
  clientSecret: string;
  rssMb: number;
}

/** The simulator's own count of what it was sent. */
export interface SimulatorTally {
  calls: number;
  findCalls: number;
  sessionCalls: number;
  queries: number;
  /** Distinct queries answered since the last reset. */
  distinctQueries: number;
  /** Bytes of the find and search replies' bodies sent since the last reset. */
  replyBytes: number;
  /** CPU time of the simulator's process since it started (not reset). */
  cpuSeconds: number;
  /** Peak resident memory of the simulator's process since it started (not reset). */
  maxRssMb: number;
}

/** The simulator running in a child process, spoken to over IPC. */
export class SimulatorProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, (value: unknown) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly info: SimulatorReady,
  ) {
    child.on('message', (m: { type: string; id?: number; tally?: SimulatorTally }) => {
      if (m.id === undefined) return;
      this.waiting.get(m.id)?.(m.tally ?? null);
      this.waiting.delete(m.id);
    });
  }

  /**
   * `port`: 0 (the default) for any free one; a kept data folder asks for the one its query keys were made with.
   * `gzip`: its find and search replies gzipped (SimulatorOptions.gzip).
   */
  static async start(p: { people: number; seed: number; latencyMs: number; port?: number; gzip?: boolean }): Promise<SimulatorProcess> {
    const child = spawnBenchScript('./simulator-child.ts', [String(p.people), String(p.seed), String(p.latencyMs), String(p.port ?? 0), p.gzip ? 'gzip' : 'plain'], {
      // The simulator stands for the service's own servers, not the app: Node's defaults, not the app's memory flags.
      appFlags: false,
      nodeArgs: (process.env.BENCH_SIMULATOR_NODE_ARGS ?? '').split(' ').filter(Boolean),
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.resume();
    try {
      const info = await new Promise<SimulatorReady>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code, signal) => reject(new Error(`The simulator exited before it was ready (${signal ?? `exit ${code}`}): ${stderr.trim()}`)));
        child.once('message', (m: SimulatorReady) => (m?.type === 'ready' ? resolve(m) : reject(new Error(`Unexpected first message from the simulator: ${JSON.stringify(m)}`))));
      });
      child.removeAllListeners('exit');
      return new SimulatorProcess(child, info);
    } catch (error) {
      await stopChild(child);
      throw error;
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  tally(): Promise<SimulatorTally> {
    return this.ask('tally') as Promise<SimulatorTally>;
  }

  async reset(): Promise<void> {
    await this.ask('reset');
  }

  /** Lets the simulator's world move on: how many people moved, and how many left without a new job. */
  moveOn(): Promise<{ moved: number; left: number }> {
    return this.ask('move-on') as Promise<{ moved: number; left: number }>;
  }

  stop(): Promise<void> {
    for (const resolve of this.waiting.values()) resolve(null);
    this.waiting.clear();
    return stopChild(this.child);
  }

  private ask(type: string): Promise<unknown> {
    if (!this.child.connected) return Promise.reject(new Error('The simulator process is gone.'));
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.send({ type, id });
    });
  }
}
