// Sheets the tests write themselves, from the same seeded people the demo service serves (seed 1, 20,000
// people: electron/engine/demo/demo-service.ts), so a test knows who the service will find.
import { buildDataset, type Person } from '../../../electron/simulator';
import type { SheetFile } from './app';

let demoPeople: Person[] | null = null;

export function peopleOfTheDemo(): Person[] {
  demoPeople ??= buildDataset(20_000, 1).people;
  return demoPeople;
}

export function currentCompany(person: Person): string | null {
  return person.jobs.find((job) => job.ended_at === null)?.company.name ?? null;
}

/** People with a current employer (name + company finds them), taken at a fixed stride so the pick is stable. */
export function employedPeople(count: number, from = 1000): Person[] {
  const picked: Person[] = [];
  const people = peopleOfTheDemo();
  for (let i = from; picked.length < count && i < people.length; i += 37) {
    if (currentCompany(people[i]!)) picked.push(people[i]!);
  }
  return picked;
}

/**
 * The person's name with two letters of the last name swapped ("Jane Smiht"): the service still finds them, but
 * a near name is never accepted without a person looking, so the row waits for review.
 */
export function misspelledName(person: Person): string {
  const last = person.last_name;
  const i = Math.floor(last.length / 2);
  return `${person.first_name} ${last.slice(0, i - 1)}${last[i]}${last[i - 1]}${last.slice(i + 1)}`;
}

/** People whose last name is long enough (and free of repeated letters where swapped) for misspelledName to change it. */
export function misspellablePeople(count: number, from = 1000): Person[] {
  return employedPeople(count * 20, from)
    .filter((p) => {
      const last = p.last_name;
      const i = Math.floor(last.length / 2);
      return /^[A-Za-z]{6,}$/.test(last) && last[i] !== last[i - 1];
    })
    .slice(0, count);
}

export function csvText(rows: string[][]): string {
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return `${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

export function csvFile(name: string, rows: string[][]): SheetFile {
  return { name, mimeType: 'text/csv', buffer: Buffer.from(csvText(rows), 'utf8') };
}
