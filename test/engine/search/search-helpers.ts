import type { CallInput, SearchProgress, SearchResultRow } from '../../../shared/contract';
import type { Person } from '../../../electron/simulator/dataset';
import type { SearchBench } from './search-fixture';

/** Runs a search through the contract and waits for its final state. */
export async function runToEnd(bench: SearchBench, input: CallInput<'search.run'>): Promise<SearchProgress> {
  const started = await bench.call('search.run', input);
  return started.status === 'running' ? bench.finished(started.searchId) : started;
}

/** Every stored result of a search, read a page at a time as the results table would. */
export async function allRows(bench: SearchBench, searchId: number, limit = 500): Promise<SearchResultRow[]> {
  const rows: SearchResultRow[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await bench.call('search.results', { searchId, offset, limit });
    rows.push(...page.rows);
    if (rows.length >= page.total || page.rows.length === 0) return rows;
  }
}

export function idsOf(rows: readonly { personId: string }[]): string[] {
  return rows.map((r) => r.personId).sort();
}

/** The ids of the dataset's people meeting a condition written plainly in the test (not with the engine's code). */
export function expectedIds(bench: SearchBench, test: (p: Person) => boolean): string[] {
  return bench.sim.dataset.people.filter(test).map((p) => p.id).sort();
}

export function dayAfter(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
