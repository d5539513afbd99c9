import type { ChildProcess } from 'node:child_process';
import type { CallInput, CallName, CallOutput, ProjectDetail, RefreshProgress, RunProgress } from '../shared/contract';
import { spawnBundle, stopChild } from './child-process';
import { bundleForBench } from './engine-bundle';
import { BenchFailure, type Log } from './engine-bench';
import type { MemoryPeak } from './memory-sampler';
import type { ProcessIo } from './process-io';
import type { SimulatorReady } from './simulator-process';

export type EngineOp = 'open' | 'enter' | 'memory' | 'call' | 'timed' | 'importSheet' | 'saveMapping' | 'runToEnd' | 'refreshToEnd' | 'reviewPages' | 'close';
export interface EngineRequest {
  id: number;
  op: EngineOp;
  args: unknown[];
}
export type EngineReply =
  | { type: 'reply'; id: number; ok: true; value: unknown; cpuSeconds: number; io: ProcessIo | null }
  | { type: 'reply'; id: number; ok: false; message: string };
type EngineMessage = EngineReply | { type: 'log'; line: string } | { type: 'ready' };

/** What one operation gave, the engine's CPU time while it ran and what the engine process wrote meanwhile. */
export interface Measured<T> {
  value: T;
  cpuSeconds: number;
  /** Null where /proc/PID/io is not there (not Linux). */
  io: ProcessIo | null;
}

export interface ImportedSheet {
  project: ProjectDetail;
  seconds: number;
  storedSeconds: number;
}

/** The engine in its own process (bench/engine-child.ts), driven by the same calls a host makes. */
export class EngineProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (reply: EngineReply) => void }>();
  dbPath = '';

  private constructor(
    private readonly child: ChildProcess,
    log: Log,
  ) {
    child.on('message', (m: EngineMessage) => {
      if (m.type === 'log') log(m.line);
      else if (m.type === 'reply') {
        this.waiting.get(m.id)?.resolve(m);
        this.waiting.delete(m.id);
      }
    });
    child.on('exit', (code, signal) => {
      for (const { resolve } of this.waiting.values()) resolve({ type: 'reply', id: 0, ok: false, message: `The engine process exited (${signal ?? `exit ${code}`}).` });
      this.waiting.clear();
    });
  }

  /** `cpuProfileDir`: the engine process writes a V8 CPU profile there when it exits (bench/profile-summary.ts reads it). */
  static async start(dataDir: string, service: SimulatorReady, concurrency: number, log: Log, cpuProfileDir: string | null = null): Promise<EngineProcess> {
    const profiling = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`, '--cpu-prof-interval=4000'] : [];
    // Bundled, as Electron's main process runs the engine: through tsx it held 10 MB more, and 15 MB more a worker.
    const child = spawnBundle(await bundleForBench('./engine-child.ts'), [dataDir], { nodeArgs: profiling });
    child.stdout!.on('data', (chunk: Buffer) => process.stdout.write(chunk));
    child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`The engine process exited before it was ready (${signal ?? `exit ${code}`}).`)));
      child.once('message', (m: EngineMessage) => (m.type === 'ready' ? resolve() : reject(new Error(`Unexpected first message: ${JSON.stringify(m)}`))));
    });
    child.removeAllListeners('exit');
    const engine = new EngineProcess(child, log);
    engine.dbPath = (await engine.ask<{ dbPath: string }>('open', service, concurrency)).value.dbPath;
    return engine;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  ask<T>(op: EngineOp, ...args: unknown[]): Promise<Measured<T>> {
    if (!this.child.connected) return Promise.reject(new BenchFailure('The engine process is gone.'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, {
        resolve: (reply) => (reply.ok ? resolve({ value: reply.value as T, cpuSeconds: reply.cpuSeconds, io: reply.io }) : reject(new BenchFailure(reply.message))),
      });
      this.child.send({ id, op, args } satisfies EngineRequest);
    });
  }

  async call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>> {
    return (await this.ask<CallOutput<K>>('call', name, input)).value;
  }

  async timed<K extends CallName>(name: K, input: CallInput<K>): Promise<{ value: CallOutput<K>; seconds: number; cpuSeconds: number }> {
    const r = await this.ask<{ value: CallOutput<K>; seconds: number }>('timed', name, input);
    return { ...r.value, cpuSeconds: r.cpuSeconds };
  }

  async importSheet(file: string, name: string): Promise<ImportedSheet & { cpuSeconds: number }> {
    const r = await this.ask<ImportedSheet>('importSheet', file, name);
    return { ...r.value, cpuSeconds: r.cpuSeconds };
  }

  async saveMapping(detail: ProjectDetail): Promise<{ project: ProjectDetail; seconds: number; mappingFixed: boolean; cpuSeconds: number }> {
    const r = await this.ask<{ project: ProjectDetail; seconds: number; mappingFixed: boolean }>('saveMapping', detail);
    return { ...r.value, cpuSeconds: r.cpuSeconds };
  }

  async runToEnd(projectId: number): Promise<{ progress: RunProgress; seconds: number; cpuSeconds: number; io: ProcessIo | null }> {
    const r = await this.ask<{ progress: RunProgress; seconds: number }>('runToEnd', projectId);
    return { ...r.value, cpuSeconds: r.cpuSeconds, io: r.io };
  }

  async refreshToEnd(projectId: number): Promise<{ progress: RefreshProgress; seconds: number; cpuSeconds: number }> {
    const r = await this.ask<{ progress: RefreshProgress; seconds: number }>('refreshToEnd', projectId);
    return { ...r.value, cpuSeconds: r.cpuSeconds };
  }

  async enter(phase: string): Promise<void> {
    await this.ask('enter', phase);
  }

  async memory(): Promise<MemoryPeak> {
    return (await this.ask<MemoryPeak>('memory')).value;
  }

  async close(): Promise<void> {
    try {
      if (this.child.connected) await this.ask('close');
      // Leaving on its own (the IPC channel closed) lets a profiling child write its profile.
      if (this.child.connected) this.child.disconnect();
      await Promise.race([new Promise((resolve) => this.child.once('exit', resolve)), new Promise((resolve) => setTimeout(resolve, 30_000))]);
    } finally {
      await stopChild(this.child);
    }
  }
}
