// Writes resources/demo/sample-people.csv, the sheet "Try with demo data" imports, from the simulator's people of
// seed 1 / 20,000 (what demo mode serves). Run once and commit the output: `npx tsx scripts/make-demo-sheet.ts`.
// The mix shows every path of a run: e-mails, profile links in assorted forms, name + company (current and past
// employers), near names a person must check, duplicates, people the service does not know, rows whose e-mail
// finds nobody but whose name + company does, and junk.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { buildDataset, type Person } from '../electron/simulator';
import { seededRandom } from '../electron/simulator/random';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'resources', 'demo', 'sample-people.csv');

const dataset = buildDataset(20_000, 1);
const rng = seededRandom(20_260_101);
const used = new Set<number>();
function person(): Person {
  for (;;) {
    const i = rng.int(dataset.people.length);
    if (used.has(i)) continue;
    const p = dataset.people[i]!;
    // Name + company rows need a current employer to be findable.
    if (!p.jobs.some((j) => j.ended_at === null)) continue;
    used.add(i);
    return p;
  }
}
const currentCompany = (p: Person) => p.jobs.find((j) => j.ended_at === null)?.company.name ?? '';

type Row = [name: string, email: string, linkedin: string, company: string, notes: string];
const rows: Row[] = [];

// Work e-mails, with name and company beside them as a sheet from a CRM would have.
for (let i = 0; i < 110; i++) {
  const p = person();
  const email = i % 7 === 0 ? ` ${p.email_address.toUpperCase()} ` : p.email_address;
  rows.push([p.name, email, '', currentCompany(p), i % 10 === 0 ? 'met at conference' : '']);
}

// Profile links in the forms people paste them.
const linkForms = [
  (s: string) => `https://www.linkedin.com/in/${s}/`,
  (s: string) => `linkedin.com/in/${s.charAt(0).toUpperCase()}${s.slice(1)}?trk=public_profile`,
  (s: string) => `http://uk.linkedin.com/in/${s}/en`,
  (s: string) => `https://m.linkedin.com/in/${encodeURIComponent(s)}`,
  (s: string) => s,
  (s: string) => `  https://linkedin.com/in/${s}  `,
];
for (let i = 0; i < 60; i++) {
  const p = person();
  rows.push([i % 3 === 0 ? p.name : '', '', linkForms[i % linkForms.length]!(p.linkedin), '', '']);
}

// Name and company only.
for (let i = 0; i < 30; i++) {
  const p = person();
  rows.push([p.name, '', '', currentCompany(p), '']);
}

// An old CRM entry: the company is one the person has since left.
let past = 0;
while (past < 10) {
  const p = person();
  const left = p.jobs.find((j) => j.ended_at !== null);
  if (!left) continue;
  rows.push([p.name, '', '', left.company.name, 'from an old list']);
  past++;
}

// A near name (two letters of the last name swapped): found, but a person should check it.
let near = 0;
while (near < 20) {
  const p = person();
  const last = p.last_name;
  const i = Math.floor(last.length / 2);
  if (!/^[A-Za-z]{6,}$/.test(last) || last[i] === last[i - 1]) continue;
  rows.push([`${p.first_name} ${last.slice(0, i - 1)}${last[i]}${last[i - 1]}${last.slice(i + 1)}`, '', '', currentCompany(p), 'typed by hand']);
  near++;
}

// The waterfall: an old private e-mail the service does not know, then name + company that it does.
for (let i = 0; i < 15; i++) {
  const p = person();
  const local = p.first_name.toLowerCase().normalize('NFKD').replace(/[^a-z]/g, '') || 'someone';
  rows.push([p.name, `${local}.${i}@old-mailbox.example`, '', currentCompany(p), 'private e-mail']);
}

// People the service has never heard of.
const unknownNames = ['Quentin Applebaum', 'Rosalind Featherstone', 'Tobias Wexford', 'Imogen Caldicott', 'Barnaby Quill'];
for (let i = 0; i < 25; i++) {
  const name = `${unknownNames[i % unknownNames.length]}${i >= unknownNames.length ? ` ${String.fromCharCode(65 + i)}.` : ''}`;
  const email = i % 2 === 0 ? `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@nowhere-corp.example` : '';
  rows.push([name, email, '', i % 2 === 0 ? '' : 'Nowhere Corp', '']);
}

// Junk cells: nothing usable, or something that is not what its column says.
rows.push(
  ['n/a', 'n/a', '-', '', 'blank row in CRM'],
  ['', 'not-an-email@', '', '', ''],
  ['', '', 'https://www.linkedin.com/company/acme-corp/', '', 'company page, not a person'],
  ['', '', 'https://twitter.com/someone', '', ''],
  ['???', '', '', '', ''],
  ['', 'jane@', 'lnkd.in/abc123', '', ''],
  ['', '', '', 'Acme', 'company only'],
  ['-', '', '', '', ''],
);

// Duplicates: the same people again, so identical queries are asked once.
const originals = rows.slice(0, 170);
for (let i = 0; i < 22; i++) rows.push([...originals[rng.int(originals.length)]!] as Row);

// Shuffle so the kinds are mixed the way a real sheet is.
for (let i = rows.length - 1; i > 0; i--) {
  const j = rng.int(i + 1);
  [rows[i], rows[j]] = [rows[j]!, rows[i]!];
}

mkdirSync(dirname(out), { recursive: true });
const csv = Papa.unparse({ fields: ['Full Name', 'Work Email', 'LinkedIn', 'Company', 'Notes'], data: rows }, { newline: '\r\n' });
writeFileSync(out, `${csv}\r\n`, 'utf8');
process.stdout.write(`Wrote ${rows.length} rows to ${out}\n`);
