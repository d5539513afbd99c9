import type { Database } from 'better-sqlite3';
import type { CandidateView, RowDetail } from '../../../shared/contract';
import { assessRow, rowFacts, rowInput, rowProblems, type CandidateFacts, type RowAssessment } from '../matching';
import { notFound } from '../engine-errors';
import type { ProjectRecord } from '../projects/project-record';
import { factsOf } from '../runs/answer-facts';
import { parseCells } from '../runs/plan-queries';
import { readRowStatus, type RowStatusRecord } from '../runs/row-status';
import { getLookups, type Lookup } from '../store';

export function rowCells(db: Database, projectId: number, rowIndex: number): string[] | null {
  const row = db.prepare('SELECT cells FROM rows WHERE project_id = ? AND row_index = ?').get(projectId, rowIndex) as { cells: string } | undefined;
  return row ? parseCells(row.cells) : null;
}

/** The stored answer a row's candidates come from (any age: the row was settled by it). */
export function lookupOf(db: Database, queryKey: string | null): Lookup | null {
  if (!queryKey) return null;
  return getLookups(db, [queryKey], Number.MIN_SAFE_INTEGER).get(queryKey) ?? null;
}

/** A row with candidates compared with them again, as the review and a decision see it; null without candidates. */
export function assessedRow(
  db: Database,
  project: ProjectRecord,
  status: RowStatusRecord,
  cells: string[],
): { facts: CandidateFacts[]; assessment: RowAssessment; sheetCompany: string | null } | null {
  if (status.outcome !== 'to_review') return null;
  const facts = factsOf(db, status.queryKey);
  if (!facts || facts.length === 0) return null;
  const input = rowInput(cells, project.mapping);
  return { facts, assessment: assessRow(rowFacts(input), facts, status.strategy), sheetCompany: input.company };
}

/** Everything the review screen shows for one row: its cells, what was asked, the candidates and the evidence. */
export function rowDetail(db: Database, project: ProjectRecord, rowIndex: number): RowDetail {
  const cells = rowCells(db, project.id, rowIndex);
  const status = readRowStatus(db, project.id, rowIndex);
  if (!cells || !status) throw notFound(`Row ${rowIndex + 1} of "${project.name}"`);
  const input = rowInput(cells, project.mapping);
  const answered = status.outcome !== 'pending' && status.outcome !== 'no_query';
  const lookup = answered ? lookupOf(db, status.queryKey) : null;
  const assessed = assessedRow(db, project, status, cells);
  const candidates: CandidateView[] = assessed
    ? assessed.assessment.candidates.map((c, i) => {
        const person = assessed.facts.find((f) => f.rank === c.rank)!;
        return {
          rank: c.rank,
          score: person.score,
          personId: person.summary.id,
          summary: person.summary,
          confidence: c.confidence,
          reason: i === 0 ? assessed.assessment.reason : c.reason,
          evidence: c.evidence,
        };
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
      location: input.location,
    },
    problems: rowProblems(input),
    state: status.state,
    strategy: status.strategy,
    fetchedAt: lookup ? new Date(lookup.fetchedAt).toISOString() : null,
    candidates,
    confidence: assessed?.assessment.confidence ?? null,
    reason: assessed?.assessment.reason ?? null,
    guard: assessed?.assessment.guard ?? null,
    scored: candidates.some((c) => c.score !== null),
    chosenRank: status.chosenRank,
    decidedAt: status.decidedAt,
    source: status.source,
    error: status.outcome === 'error' ? (lookup?.error?.message ?? 'The query of this row failed. Run the project again to retry it.') : null,
    identicalRows: Math.max(0, identical - 1),
  };
}
