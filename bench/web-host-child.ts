// Child process: the browser host (electron/web) on a data folder, as `matchdesk web` runs it, so the benchmark can
// drive it over HTTP like the page does and read its own peak resident memory.
import { startWebHost } from '../electron/web/server';
import { MemorySampler } from './memory-sampler';

const [dataDir] = process.argv.slice(2);
if (!dataDir) {
  process.stderr.write('usage: web-host-child <data-dir>\n');
  process.exit(2);
}
// Sampled from the start, so the report can say which part of the flow needed the memory.
const memory = new MemorySampler(50);
const host = await startWebHost({ dataDir, port: 0, log: (line) => process.stdout.write(`  web host: ${line}\n`) });
process.send!({ type: 'ready', origin: host.origin, token: host.token });

process.on('message', (message: { type?: string; id?: number; phase?: string }) => {
  if (message?.type === 'enter' && message.phase) {
    memory.enter(message.phase);
    process.send!({ type: 'entered', id: message.id });
  }
  if (message?.type === 'usage') {
    const usage = process.resourceUsage();
    const peak = memory.peakMb();
    process.send!({ type: 'usage', id: message.id, maxRssMb: peak.maxRss, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, memory: peak });
  }
});
const stop = () => {
  void host.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
