import type { Database } from 'better-sqlite3';
import type { ReviewPage, ReviewRow } from '../../../shared/contract';
import { ROW_STATES, type RowState } from '../../../shared/model';
import { summarizePerson } from '../matching';
import { ROW_STATUS_COLUMNS, stateCounts, toRowStatus, type RowStatusRow } from '../runs/row-status';
import { getLookups } from '../store';
import { rankedCandidates } from './row-detail';

export interface ReviewPageRequest {
  states?: RowState[];
  text?: string;
  offset: number;
  limit: number;
}

/**
 * One page of a project's rows in file order, filtered by state and by text in the row's label or cells.
 * The state filter walks the (project_id, state, row_index) index, so a page of a 100,000-row project stays
 * in milliseconds; counts per state are always for the whole project.
 */
export function reviewPage(db: Database, projectId: number, req: ReviewPageRequest): ReviewPage {
  const where: string[] = ['rs.project_id = ?'];
  const params: unknown[] = [projectId];
  const states = req.states && req.states.length > 0 ? [...new Set(req.states)].filter((s) => ROW_STATES.includes(s)) : null;
  if (states) {
    where.push(`rs.state IN (${states.map(() => '?').join(', ')})`);
    params.push(...states);
  }
  const counts = stateCounts(db, projectId);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const matching = states ? states.reduce((n, s) => n + counts[s], 0) : total;
  // A rare state is found fastest through the state index; a common one by walking rows in order until the
  // page is full. SQLite has no statistics to choose by, so the counts at hand decide.
  const hint = states && matching * 20 < total ? 'INDEXED BY row_status_by_state' : '';
  const text = req.text?.trim();
  const join = text ? 'JOIN rows r ON r.project_id = rs.project_id AND r.row_index = rs.row_index' : '';
  if (text) {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // Cells are stored as JSON: a quote or backslash in the search is escaped the way JSON writes it.
    const cellPattern = `%${JSON.stringify(text).slice(1, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push("(rs.label LIKE ? ESCAPE '\\' OR r.cells LIKE ? ESCAPE '\\')");
    params.push(pattern, cellPattern);
  }
  const filter = `FROM row_status AS rs ${hint} ${join} WHERE ${where.join(' AND ')}`;
  const rows = db
    .prepare(`SELECT ${ROW_STATUS_COLUMNS.split(', ').map((c) => `rs.${c}`).join(', ')} ${filter} ORDER BY rs.row_index LIMIT ? OFFSET ?`)
    .all(...params, req.limit, req.offset) as RowStatusRow[];
  const found = !text ? matching : (db.prepare(`SELECT count(*) ${filter}`).pluck().get(...params) as number);

  const statuses = rows.map(toRowStatus);
  const keys = statuses.filter((s) => s.outcome === 'to_review' && s.queryKey).map((s) => s.queryKey!);
  const lookups = keys.length > 0 ? getLookups(db, keys, Number.MIN_SAFE_INTEGER) : new Map();
  const page: ReviewRow[] = statuses.map((s) => {
    let top = s.chosen?.summary ?? null;
    let topScore = s.chosen?.score ?? null;
    if (!top && s.outcome === 'to_review' && s.queryKey) {
      const best = rankedCandidates(lookups.get(s.queryKey) ?? null)[0];
      if (best) {
        top = summarizePerson(best.person);
        topScore = best.score;
      }
    }
    return {
      rowIndex: s.rowIndex,
      state: s.state,
      label: s.label,
      top,
      topScore,
      strategy: s.strategy,
      candidateCount: s.candidateCount,
      chosenRank: s.chosenRank,
    };
  });
  return { rows: page, total: found, counts };
}
