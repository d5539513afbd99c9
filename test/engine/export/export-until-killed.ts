// A child process for unfinished-exports.test.ts: imports the sheet given, exports its matches and candidates to the
// path given, and once the matches are whole (their part file waiting for the candidates) says "exporting" and waits
// there for the kill that never lets the export finish or clean up. With "halves", the matches are made on two threads
// (runs/export-halves.ts): the worker's lines wait in a file of their own too.
import { onJobDetail } from '../../support/job-events';
import { createEngine } from '../../../electron/engine/engine';
import { SessionSecretStore } from '../../../electron/engine/secrets';

const [dataDir, sheet, out, halves] = process.argv.slice(2) as [string, string, string, string | undefined];
const engine = await createEngine({ dataDir, host: 'cli', secrets: new SessionSecretStore(), version: 'test', ...(halves === 'halves' ? { exportHalvesFrom: 0 } : {}) });
onJobDetail(engine, 'export', (progress) => {
  if (progress.part !== 'candidates') return;
  process.stdout.write('exporting\n', () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0));
});
const project = await engine.invoke('projects.import', { file: sheet });
await engine.invoke('export.run', { projectId: project.summary.id, format: 'csv', scope: 'all', candidates: true, destination: out });
