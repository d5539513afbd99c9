// Child process: the engine under test, alone in its process as in the desktop app's main process, so its peak
// resident memory and its CPU are the engine's own and not the benchmark's (which holds sheets and reference
// results). The parent sends operations over IPC and gets each one's value, its CPU seconds, what it wrote and log
// lines back.
import { EngineBench } from './engine-bench';
import { MemorySampler } from './memory-sampler';
import type { EngineOp, EngineReply, EngineRequest } from './engine-process';
import { ioSince, readProcessIo } from './process-io';

const [dataDir] = process.argv.slice(2);
if (!dataDir) {
  process.stderr.write('usage: engine-child <data-dir>\n');
  process.exit(2);
}

const memory = new MemorySampler(50);
let bench: EngineBench | null = null;
const log = (line: string) => process.send!({ type: 'log', line });

function engine(): EngineBench {
  if (!bench) throw new Error('The engine is not open yet.');
  return bench;
}

const ops: { [K in EngineOp]: (...args: never[]) => unknown } = {
  open: async (service: Parameters<typeof EngineBench.open>[1], concurrency: number) => {
    bench = await EngineBench.open(dataDir, service, concurrency, log);
    return { dbPath: bench.engine.dbPath };
  },
  enter: (phase: string) => memory.enter(phase),
  memory: () => memory.peakMb(),
  call: (name: never, input: never) => engine().call(name, input),
  timed: (name: never, input: never) => engine().timed(name, input),
  importSheet: (file: string, name: string) => engine().importSheet(file, name),
  saveMapping: (detail: never) => engine().saveMapping(detail),
  runToEnd: (projectId: number) => engine().runToEnd(projectId),
  refreshToEnd: (projectId: number) => engine().refreshToEnd(projectId),
  reviewPages: (projectId: number, fetches: number) => engine().reviewPages(projectId, fetches),
  close: async () => {
    await bench?.close();
    bench = null;
    memory.stop();
  },
};

process.on('message', (request: EngineRequest) => {
  void (async () => {
    const before = process.cpuUsage();
    const ioBefore = readProcessIo();
    let reply: EngineReply;
    try {
      const value = await (ops[request.op] as (...args: unknown[]) => unknown)(...request.args);
      const cpu = process.cpuUsage(before);
      reply = { type: 'reply', id: request.id, ok: true, value, cpuSeconds: (cpu.user + cpu.system) / 1e6, io: ioSince(ioBefore, readProcessIo()) };
    } catch (error) {
      reply = { type: 'reply', id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    process.send!(reply);
  })();
});

// The parent gone (killed, crashed): close the database cleanly rather than linger.
process.on('disconnect', () => {
  void (bench?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
process.send!({ type: 'ready' });
