// Child process: the People Data Service simulator for the benchmark, in a process of its own so its CPU and
// memory are not the engine's. Says it is ready (and where) over IPC, and answers counter requests.
import { startSimulator } from '../electron/simulator';
import type { SimulatorReady, SimulatorTally } from './simulator-process';
import { peakRssBytes } from './peak-rss';

const [peopleText, seedText, latencyText, portText, gzipText] = process.argv.slice(2);
const simulator = await startSimulator({ port: Number(portText ?? 0), people: Number(peopleText), seed: Number(seedText), latencyMs: Number(latencyText), gzip: gzipText === 'gzip' });

function tally(): SimulatorTally {
  // Polled while a run goes (cli-match-step.ts): the counters' figures only, not a copy of every distinct query.
  const c = simulator.tallies();
  const cpu = process.cpuUsage();
  return {
    calls: c.calls,
    findCalls: c.findCalls,
    sessionCalls: c.sessionCalls,
    queries: c.queries,
    distinctQueries: c.distinctQueries,
    replyBytes: c.replyBytes,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssMb: peakRssBytes() / 1e6,
  };
}

const ready: SimulatorReady = {
  type: 'ready',
  baseUrl: simulator.baseUrl,
  orgId: simulator.orgId,
  clientId: simulator.demo.clientId,
  clientSecret: simulator.demo.clientSecret,
  rssMb: Math.round(process.memoryUsage().rss / 1e6),
};
process.send!(ready);

process.on('message', (message: { type?: string; id?: number }) => {
  if (message?.type === 'tally') process.send!({ type: 'tally', id: message.id, tally: tally() });
  else if (message?.type === 'reset') {
    simulator.resetCounters();
    process.send!({ type: 'reset', id: message.id });
  } else if (message?.type === 'move-on') {
    // The world moves on before the refresh step: a fifth of the employed end their job (simulator/move-on.ts).
    const report = simulator.moveOn({ share: 0.2, seed: Number(seedText) + 1 });
    process.send!({ type: 'move-on', id: message.id, tally: { moved: report.moved.length, left: report.left.length } });
  }
});

const stop = () => {
  void simulator.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The parent gone (killed, crashed): nobody will stop us otherwise.
process.on('disconnect', stop);
