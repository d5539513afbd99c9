import type { Database } from 'better-sqlite3';
import type { CandidateView, JobView, RowDetail, RowRefresh } from '../../../shared/contract';
import type { JobChangeStatus } from '../../../shared/model';
import { assessRow, atCompany, rowFacts, rowInput, rowProblems, type CandidateFacts, type JobFact, type RowAssessment } from '../matching';
import { LIFTED_REASON, learnedVerdict, usableState } from '../matching/learned-model';
import { FreshestFacts } from '../rows/freshest-facts';
import { storedLearning } from '../rows/stored-learning';
import { EngineError, notFound } from '../engine-errors';
import { sheetRowNumber, type ProjectRecord } from '../rows/project-record';
import { factsOf } from '../runs/answer-facts';
import { rowsAskingCount } from '../runs/shared-queries';
import { parseCells } from '../rows/row-cells';
import { readRowStatus, type RowStatusRecord } from '../rows/row-status';
import { answerFetched, statement } from '../store';
import { ANSWERED } from '../store/refresh-tables';

export function rowCells(db: Database, projectId: number, rowIndex: number): string[] | null {
  const row = statement(db, 'SELECT cells FROM rows WHERE project_id = ? AND row_index = ?').get(projectId, rowIndex) as { cells: string } | undefined;
  return row ? parseCells(row.cells) : null;
}

/**
 * A row with candidates compared with them again, as the review and a decision see it; null without candidates. A
 * candidate a refresh found since the row's answer is read from that fresher record (their rank stays the
 * answer's): the evidence, the job history and a decision made now all see where the person is now.
 */
export function assessedRow(
  db: Database,
  project: ProjectRecord,
  status: RowStatusRecord,
  cells: string[],
): { facts: CandidateFacts[]; assessment: RowAssessment; sheetCompany: string | null; refreshedAt: Map<number, number> } | null {
  if (status.outcome !== 'to_review') return null;
  const answered = factsOf(db, status.queryId);
  if (!answered || answered.length === 0) return null;
  const fresh = FreshestFacts.load(db, project.planScope, answered.map((f) => ({ slug: f.slug, queryId: status.queryId })));
  const refreshedAt = new Map<number, number>();
  const facts = answered.map((f) => {
    const record = fresh.record(f.slug, status.queryId);
    if (!record) return f;
    refreshedAt.set(f.rank, record.refreshedAt);
    return { ...record.facts, rank: f.rank, score: f.score };
  });
  const input = rowInput(cells, project.mapping);
  return { facts, assessment: assessRow(rowFacts(input), facts, status.strategy), sheetCompany: input.company, refreshedAt };
}

/** Everything the review screen shows for one row: its cells, what was asked, the candidates and the evidence. */
export function rowDetail(db: Database, project: ProjectRecord, rowIndex: number): RowDetail {
  const cells = rowCells(db, project.id, rowIndex);
  const status = readRowStatus(db, project.id, rowIndex);
  if (cells?.length === 0 && !status) {
    throw new EngineError('not_found', `Row ${sheetRowNumber(project, rowIndex)} of "${project.name}" is blank: it keeps its place in the sheet, with nothing to look up.`);
  }
  if (!cells || !status) throw notFound(`Row ${sheetRowNumber(project, rowIndex)} of "${project.name}"`);
  const input = rowInput(cells, project.mapping);
  const matched = status.state === 'auto' || status.state === 'accepted';
  const answered = status.outcome !== 'pending' && status.outcome !== 'no_query';
  // The answer the row was settled by (any age), without its people's records: the candidates come from their facts.
  const lookup = answered && status.queryId !== null ? answerFetched(db, status.queryId) : null;
  const assessed = assessedRow(db, project, status, cells);
  const verdict = assessed ? waitingVerdict(db, project.id, status, assessed.assessment) : null;
  const answeredAt = lookup ? new Date(lookup.fetchedAt).toISOString() : null;
  const candidates: CandidateView[] = assessed
    ? assessed.assessment.candidates.map((c, i) => {
        const person = assessed.facts.find((f) => f.rank === c.rank)!;
        const refreshedAt = assessed.refreshedAt.get(c.rank);
        return {
          rank: c.rank,
          score: person.score,
          personId: person.summary.id,
          summary: person.summary,
          confidence: i === 0 ? verdict!.confidence : c.confidence,
          reason: i === 0 ? verdict!.reason : c.reason,
          evidence: c.evidence,
          jobs: jobViews(person.jobs, input.company),
          jobsAsOf: refreshedAt === undefined ? answeredAt : new Date(refreshedAt).toISOString(),
        };
      })
    : [];
  const identical = status.queryId === null ? 0 : rowsAskingCount(db, project, status.queryId);
  return {
    rowIndex,
    rowNumber: sheetRowNumber(project, rowIndex),
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
    fetchedAt: answeredAt,
    candidates,
    confidence: verdict?.confidence ?? null,
    reason: verdict?.reason ?? null,
    guard: verdict?.guard ?? null,
    scored: candidates.some((c) => c.score !== null),
    chosenRank: status.chosenRank,
    decidedAt: status.decidedAt,
    source: status.source,
    error: status.outcome === 'error' ? (lookup?.error?.message ?? 'The query of this row failed. Run the project again to retry it.') : null,
    identicalRows: Math.max(0, identical - 1),
    jobChange: matched ? (status.chosen?.jobChange ?? null) : null,
    refresh: matched ? rowRefresh(db, project.id, rowIndex, status.chosen?.summary.social ?? null) : null,
  };
}

/**
 * The row's verdict as the review lists it: for a row waiting for review, under what the project learned (a lift, or
 * a confidence the sheet's figures lowered); for any other, the model's alone, as its decision was made.
 */
function waitingVerdict(db: Database, projectId: number, status: RowStatusRecord, a: RowAssessment): { confidence: number; reason: string; guard: string | null } {
  if (status.state !== 'to_review') return a;
  const v = learnedVerdict(a, usableState(storedLearning(db, projectId)?.state ?? null).state);
  return { confidence: v.confidence, guard: v.guard, reason: v.learned ? `${a.reason}${LIFTED_REASON}` : a.reason };
}

function jobViews(jobs: readonly JobFact[], sheetCompany: string | null): JobView[] {
  // The jobs the job change and the evidence take for the sheet's company: a close name too ("Cyberdyne Systems").
  const atSheet = new Set(sheetCompany === null ? [] : atCompany(sheetCompany, jobs, (j) => j.company).items);
  return jobs.map((j) => ({
    company: j.company,
    title: j.title,
    started: j.started,
    ended: j.ended,
    status: j.status,
    atSheetCompany: atSheet.has(j),
  }));
}

/** What the refresh that last asked for the row's person changed, while the row still has that person. */
function rowRefresh(db: Database, projectId: number, rowIndex: number, slug: string | null): RowRefresh | null {
  if (!slug) return null;
  const row = db
    .prepare(
      `SELECT rr.refresh_id, r.started_at, rr.changed, rr.previous_company, rr.previous_title, rr.previous_job_change, rr.previous_job_change_date,
              (SELECT max(id) FROM refreshes WHERE project_id = rr.project_id AND ${ANSWERED}) AS latest
       FROM row_refreshes AS rr JOIN refreshes AS r ON r.id = rr.refresh_id
       WHERE rr.project_id = ? AND rr.row_index = ? AND rr.slug = ?`,
    )
    .get(projectId, rowIndex, slug) as
    | { refresh_id: number; started_at: string; changed: number; previous_company: string | null; previous_title: string | null; previous_job_change: JobChangeStatus | null; previous_job_change_date: string | null; latest: number }
    | undefined;
  if (!row) return null;
  return {
    refreshId: row.refresh_id,
    at: row.started_at,
    latest: row.refresh_id === row.latest,
    changed: row.changed === 1,
    previousCompany: row.previous_company,
    previousTitle: row.previous_title,
    previousJobChange: row.previous_job_change,
    previousJobChangeDate: row.previous_job_change_date,
  };
}
