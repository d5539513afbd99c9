// How much disk a run needs beyond its database: imports a 20,000-row sheet and matches it against the simulator,
// sampling the database's and the WAL's size at every progress event, then prints the WAL's peak and the most both
// took against the database's final size (once closed, every page is in it). Run: `npx tsx scripts/wal-peak.ts [rows]`. Everything goes to a temp folder, removed at the end.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../electron/engine/engine';
import { SessionSecretStore } from '../electron/engine/secrets';
import { startSimulator } from '../electron/simulator';

const rows = Number(process.argv[2] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), 'matchdesk-wal-peak-'));
const db = join(dir, 'matchdesk.sqlite');
const size = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;
let peakWal = 0;
let peakBoth = 0;
const sample = () => {
  const wal = size(`${db}-wal`);
  peakWal = Math.max(peakWal, wal);
  peakBoth = Math.max(peakBoth, wal + size(db));
};

const sim = await startSimulator({ port: 0, people: 20_000, seed: 1 });
const engine = await createEngine({ dataDir: dir, host: 'cli', secrets: new SessionSecretStore(), version: 'wal-peak' });
try {
  engine.on('job.progress', (job) => {
    if (job.kind === 'run' || job.kind === 'import' || job.kind === 'plan') sample();
  });
  const profile = await engine.invoke('profiles.save', { name: 'sim', baseUrl: sim.baseUrl, orgId: sim.orgId, kind: 'service_account', login: sim.demo.clientId, secret: sim.demo.clientSecret });
  await engine.invoke('profiles.select', { id: profile.id });
  const people = sim.dataset.people;
  const lines = ['Name,Email,Company'];
  for (let i = 0; i < rows; i++) {
    const p = people[i % people.length]!;
    const company = p.jobs.find((j) => j.ended_at === null)?.company.name ?? '';
    lines.push(`"${p.name}",${i % 3 === 0 ? p.email_address : `row-${i}@nowhere.example`},"${company}"`);
  }
  const sheet = join(dir, 'people.csv');
  writeFileSync(sheet, `${lines.join('\n')}\n`);
  const project = await engine.invoke('projects.import', { file: sheet });
  sample();
  await engine.invoke('run.start', { projectId: project.summary.id, offline: false });
  const end = await engine.runSettled(project.summary.id);
  sample();
  await engine.close();
  const finalDb = size(db);
  const mb = (n: number) => `${(n / 1024 ** 2).toFixed(1)} MB`;
  console.log(`${rows} rows, run ${end?.status}: WAL peak ${mb(peakWal)}, database ${mb(finalDb)} once closed;`);
  console.log(`database + WAL at most ${mb(peakBoth)} = ${(peakBoth / finalDb).toFixed(2)}x the final database`);
} finally {
  await engine.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
}
