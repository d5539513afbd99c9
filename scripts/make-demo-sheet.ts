// Writes resources/demo/sample-people.csv, the sheet "Try with demo data" imports, from the simulator's people of
// seed 1 / 20,000 (what demo mode serves). Run once and commit the output: `npx tsx scripts/make-demo-sheet.ts`.
// The mix shows every path of a run: e-mails, profile links in assorted forms, name + company (current and past
// employers), near names a person must check, duplicates, people the service does not know, rows whose e-mail
// finds nobody but whose name + company does, and junk. And every feature after it, picked with the engine's own
// confidence model over the simulator's answers: namesakes and near names at one employer (rows to review with 2 to
// 5 candidates), and a group of rows of one kind that the model alone leaves for review, so that once a reviewer has
// accepted ten of them, what was learned lifts the rest and "Accept confident rows…" takes them at 90%.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { parseFindReply } from '../electron/engine/api/find-reply';
import { assessRow, autoAccepts, rankedFacts, rowFacts, rowInput, type RowAssessment } from '../electron/engine/matching';
import { reasonPattern } from '../electron/engine/matching/reason-pattern';
import { PeopleIndex, buildDataset, type Person } from '../electron/simulator';
import { renderFindReply } from '../electron/simulator/find';
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
const EMAIL_ROWS = 90;
const LINK_ROWS = 60;
for (let i = 0; i < EMAIL_ROWS; i++) {
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
for (let i = 0; i < LINK_ROWS; i++) {
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

// What the engine makes of a name + company row against the demo's service: its candidates and its verdict.
const index = new PeopleIndex(dataset);
const MAPPING = { fullName: 0, email: 1, profile: 2, company: 3 };
function assessed(name: string, company: string): { candidates: number; verdict: RowAssessment } {
  const hits = index.find([{ field_name: 'name', search_term: name }, { field_name: 'company.name', search_term: company }]);
  const [candidates] = parseFindReply(JSON.parse(renderFindReply(index, [hits], 'array', false)), 1);
  const verdict = assessRow(rowFacts(rowInput([name, '', '', company], MAPPING)), rankedFacts(candidates!), 'name+company', 'best');
  return { candidates: candidates!.length, verdict };
}
const rule = (minConfidence: number) => ({ enabled: true, minConfidence, minLead: 0.5 });
const asked = new Set(rows.map((row) => `${row[0]}|${row[3]}`));
/** People in dataset order from a seeded start, so each section draws its own. */
function* peopleFrom(start: number): Generator<Person> {
  for (let i = 0; i < dataset.people.length; i++) yield dataset.people[(start + i) % dataset.people.length]!;
}

// Namesakes and near names at one employer: the service returns 2 to 5 people, and a person has to choose.
const reviewByCount = new Map<number, number>();
for (const p of peopleFrom(rng.int(dataset.people.length))) {
  const company = p.jobs.find((j) => j.ended_at === null)?.company.name;
  if (!company || asked.has(`${p.name}|${company}`)) continue;
  const { candidates, verdict } = assessed(p.name, company);
  if (candidates < 2 || (reviewByCount.get(candidates) ?? 0) >= 3 || autoAccepts(verdict, rule(0.5))) continue;
  asked.add(`${p.name}|${company}`);
  reviewByCount.set(candidates, (reviewByCount.get(candidates) ?? 0) + 1);
  rows.push([p.name, '', '', company, '']);
  if ([2, 3, 4, 5].every((n) => reviewByCount.get(n) === 3)) break;
}

// The company written short, as a CRM often has it ("Falconharbor" for "Falconharbor Materials"): the model alone
// leaves such a row for review (the record only nearly has the company), at well under 90%. A reviewer accepts ten,
// learning lifts the rest to what those labels give (11 / 12), and the accept of confident rows at 90% takes them.
const SHORT_COMPANY = 'not_at_company|exact|current_close|none|alone';
let short = 0;
for (const p of peopleFrom(rng.int(dataset.people.length))) {
  const company = p.jobs.find((j) => j.ended_at === null)?.company.name;
  const first = company?.split(' ')[0] ?? '';
  if (!company || first === company || !/^\p{L}{6,}$/u.test(first) || asked.has(`${p.name}|${first}`)) continue;
  if (reasonPattern(assessed(p.name, first).verdict) !== SHORT_COMPANY) continue;
  asked.add(`${p.name}|${first}`);
  rows.push([p.name, '', '', first, 'company written short']);
  if (++short === 30) break;
}

// Duplicates: the same people again (by e-mail or profile link), so identical queries are asked once.
const originals = rows.slice(0, EMAIL_ROWS + LINK_ROWS);
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
