import type { Database } from 'better-sqlite3';
import type { CandidateView, RowDetail } from '../../../shared/contract';
import type { Candidate } from '../../../shared/model';
import { notFound } from '../engine-errors';
import { evidenceFor, rowInput, rowProblems, summarizePerson } from '../matching';
import type { ProjectRecord } from '../projects/project-record';
import { parseCells } from '../runs/plan-queries';
import { readRowStatus } from '../runs/row-status';
import { getLookups, type Lookup } from '../store';

/** The service sends at most five people per query (spec §8); a longer list is cut to what the UI can choose. */
export const MAX_CANDIDATES = 5;

export function rowCells(db: Database, projectId: number, rowIndex: number): string[] | null {
  const row = db.prepare('SELECT cells FROM rows WHERE project_id = ? AND row_index = ?').get(projectId, rowIndex) as { cells: string } | undefined;
  return row ? parseCells(row.cells) : null;
}

/** The stored answer a row's candidates come from (any age: the row was settled by it). */
export function lookupOf(db: Database, queryKey: string | null): Lookup | null {
  if (!queryKey) return null;
  return getLookups(db, [queryKey], Number.MIN_SAFE_INTEGER).get(queryKey) ?? null;
}

export function rankedCandidates(lookup: Lookup | null): Candidate[] {
  if (!lookup || lookup.status !== 'ok' || !lookup.candidates) return [];
  return [...lookup.candidates].sort((a, b) => a.rank - b.rank).slice(0, MAX_CANDIDATES);
}

/** Everything the review screen shows for one row: its cells, what was asked, the candidates and the evidence. */
export function rowDetail(db: Database, project: ProjectRecord, rowIndex: number): RowDetail {
  const cells = rowCells(db, project.id, rowIndex);
  const status = readRowStatus(db, project.id, rowIndex);
  if (!cells || !status) throw notFound(`Row ${rowIndex + 1} of "${project.name}"`);
  const input = rowInput(cells, project.mapping);
  const answered = status.outcome !== 'pending' && status.outcome !== 'no_query';
  const lookup = answered ? lookupOf(db, status.queryKey) : null;
  const candidates: CandidateView[] =
    status.outcome === 'to_review'
      ? rankedCandidates(lookup).map((c) => {
          const summary = summarizePerson(c.person);
          return { rank: c.rank, score: c.score, personId: summary.id, summary, evidence: evidenceFor(input, c.person) };
        })
      : [];
  const identical = status.queryKey
    ? (db.prepare('SELECT count(*) FROM row_status WHERE project_id = ? AND query_key = ?').pluck().get(project.id, status.queryKey) as number)
    : 0;
  return {
    rowIndex,
    headers: project.headers,
    cells,
    input: {
      email: input.email?.ok ? input.email.email : null,
      social: input.profile?.ok ? input.profile.slug : null,
      name: input.name,
      company: input.company,
    },
    problems: rowProblems(input),
    state: status.state,
    strategy: status.strategy,
    fetchedAt: lookup ? new Date(lookup.fetchedAt).toISOString() : null,
    candidates,
    scored: candidates.some((c) => c.score !== null),
    chosenRank: status.chosenRank,
    decidedAt: status.decidedAt,
    source: status.source,
    error: status.outcome === 'error' ? (lookup?.error?.message ?? 'The query of this row failed. Run the project again to retry it.') : null,
    identicalRows: Math.max(0, identical - 1),
  };
}
