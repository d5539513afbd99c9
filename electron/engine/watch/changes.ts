import type { Database } from 'better-sqlite3';
import type { PersonChange } from '../../../shared/contract';
import { requireProject, sheetRowNumber } from '../rows/project-record';
import { parseCells } from '../rows/row-cells';
import { rowStatusColumns, toRowStatus, type RowStatusRow } from '../rows/row-status';
import { importantTest } from './important';
import { projectSightings, type Sighting } from '../rows/person-history';
import { changeBetween, type ChangeKind, type PersonState } from '../rows/person-state';

/** A person whose state after the cut differs from their state at it. */
interface PersonMove {
  slug: string;
  kind: ChangeKind;
  from: PersonState;
  to: PersonState;
  /** When the refresh that first saw the state they are in now began. */
  detectedAt: string;
}

/**
 * Where the history is cut: refreshes before it are the baseline, those after it found the changes. A date (any
 * day: refreshes that began before it), or a refresh id (the inbox: everything up to the one last seen).
 */
export type Cut = { beforeDate: string } | { throughRefresh: number };

function isBeforeCut(cut: Cut, s: Sighting): boolean {
  return 'beforeDate' in cut ? s.startedAt < cut.beforeDate : s.refreshId <= cut.throughRefresh;
}

/**
 * Who moved, left or changed title since the cut, person by person: the state a person was in at the cut (what the
 * last refresh before it saw, else what their rows said when the first refresh after it began) against what the last
 * refresh saw. A person who moved and came back is not a change.
 */
export function personMoves(db: Database, projectId: number, cut: Cut): PersonMove[] {
  const moves: PersonMove[] = [];
  let slug: string | null = null;
  let sightings: Sighting[] = [];
  const settle = () => {
    if (slug === null) return;
    const move = moveOf(slug, sightings, cut);
    if (move) moves.push(move);
  };
  for (const s of projectSightings(db, projectId)) {
    if (s.slug !== slug) {
      settle();
      slug = s.slug;
      sightings = [];
    }
    sightings.push(s);
  }
  settle();
  return moves;
}

function moveOf(slug: string, sightings: Sighting[], cut: Cut): PersonMove | null {
  const seen = sightings.filter((s) => !s.before);
  const atCut = seen.filter((s) => isBeforeCut(cut, s)).at(-1) ?? sightings.find((s) => s.before && !isBeforeCut(cut, s));
  const after = seen.filter((s) => !isBeforeCut(cut, s));
  const now = after.at(-1);
  if (!atCut || !now) return null;
  const kind = changeBetween(atCut.state, now.state);
  if (!kind) return null;
  // Found at the first refresh after which the person stayed as they are now.
  let first = after.length - 1;
  while (first > 0 && changeBetween(after[first - 1]!.state, now.state) === null) first--;
  return { slug, kind, from: atCut.state, to: now.state, detectedAt: after[first]!.startedAt };
}

/** Slugs a statement: long IN lists prepare slowly (as in store/lookups.ts). */
const SLUGS_PER_READ = 500;

/**
 * The matched rows (auto or accepted) of the people who changed since the cut, in sheet order: one change a row,
 * with its cells and whether it is marked important.
 */
export function projectChanges(db: Database, projectId: number, cut: Cut): PersonChange[] {
  const project = requireProject(db, projectId);
  const moves = new Map(personMoves(db, projectId, cut).map((m) => [m.slug, m]));
  const isImportant = importantTest(db, projectId);
  const changes: PersonChange[] = [];
  const read = db
    .prepare(
      `SELECT rr.row_index AS r_row_index, rr.slug, r.cells, ${rowStatusColumns('rs')}
       FROM row_refreshes AS rr
       JOIN row_status AS rs ON rs.project_id = rr.project_id AND rs.row_index = rr.row_index
       JOIN rows AS r ON r.project_id = rr.project_id AND r.row_index = rr.row_index
       WHERE rr.project_id = ? AND rr.slug IN (SELECT value FROM json_each(?)) AND rs.state IN ('auto', 'accepted')
         AND (rs.chosen IS NOT NULL OR rs.chosen_person IS NOT NULL)`,
    );
  const slugs = [...moves.keys()];
  for (let i = 0; i < slugs.length; i += SLUGS_PER_READ) {
    const rows = read.all(projectId, JSON.stringify(slugs.slice(i, i + SLUGS_PER_READ))) as (RowStatusRow & { r_row_index: number; slug: string; cells: string })[];
    for (const row of rows) {
      const { r_row_index: rowIndex, slug, cells: cellsText } = row;
      const chosen = toRowStatus(row).chosen;
      // A row that chose someone else since is not about this person any more.
      if (chosen?.summary.social !== slug) continue;
      const move = moves.get(slug)!;
      const cells = parseCells(cellsText);
      changes.push({
        rowIndex,
        rowNumber: sheetRowNumber(project, rowIndex),
        cells,
        personName: chosen.summary.name,
        personId: chosen.summary.id,
        kind: move.kind,
        from: { company: move.from.company, title: move.from.title },
        to: { company: move.to.company, title: move.to.title },
        changeDate: move.to.since,
        detectedAt: move.detectedAt,
        important: isImportant(rowIndex, cells),
      });
    }
  }
  return changes.sort((a, b) => a.rowIndex - b.rowIndex);
}
