// The filter builder's state: rows of field / match / values, loose or inside "same job" boxes. A box becomes a
// `job_group`, so every filter in it must hold for one and the same job entry (the service's semantics).
import { fieldInfo, SEARCH_FIELDS, type FieldInfo, type MatchType } from '../../../../shared/fields';
import { validateFilters, type SearchFilter } from '../../../../shared/search-filters';
import { parseValueList, valueListText } from './value-list';

export type FilterType = SearchFilter['type'];

export interface FilterRow {
  id: string;
  field: string;
  type: FilterType;
  match: MatchType;
  /** Values as typed for text and slug fields: one per line, or comma-separated on one line. */
  text: string;
  /** Values picked from the vocabulary of an enum field. */
  picked: string[];
  dateFrom: string;
  dateTo: string;
}

export interface JobBox {
  id: string;
  rows: FilterRow[];
}

export interface BuilderState {
  /** Filters that hold on their own (for jobs.* fields: on any job, not necessarily the same one). */
  loose: FilterRow[];
  boxes: JobBox[];
  /** Rows the user has edited (or that came from a template or a saved search): their problems are shown. */
  touched: Record<string, true>;
  nextId: number;
}

export const JOB_FIELDS: readonly FieldInfo[] = SEARCH_FIELDS.filter((field) => field.job);

export function emptyBuilder(): BuilderState {
  return { loose: [], boxes: [], touched: {}, nextId: 1 };
}

/** Where a row goes: loose, an existing box, or a new box. */
export type RowPlace = { kind: 'loose' } | { kind: 'box'; boxId: string } | { kind: 'newBox' };

export type BuilderAction =
  | { type: 'addRow'; boxId: string | null; field?: string }
  | { type: 'addBox' }
  | { type: 'removeRow'; rowId: string }
  | { type: 'setField'; rowId: string; field: string }
  | { type: 'updateRow'; rowId: string; patch: Partial<Pick<FilterRow, 'type' | 'match' | 'text' | 'picked' | 'dateFrom' | 'dateTo'>> }
  | { type: 'moveRow'; rowId: string; to: RowPlace }
  | { type: 'ungroupBox'; boxId: string }
  | { type: 'load'; filters: readonly SearchFilter[] }
  | { type: 'clear' };

/** The match a field gets when picked: what users mean most often (exact for slugs, words for text). */
export function defaultMatch(info: FieldInfo): MatchType {
  if (info.type === 'text') return 'fuzzy';
  return info.matchTypes.includes('exact') ? 'exact' : info.matchTypes[0]!;
}

/** Match types the builder offers: a date is a range ("exact" on the wire) or present; fuzzy adds nothing there. */
export function offeredMatches(info: FieldInfo): MatchType[] {
  return info.type === 'date' ? info.matchTypes.filter((m) => m !== 'fuzzy') : [...info.matchTypes];
}

function newRow(id: string, field: string): FilterRow {
  const info = fieldInfo(field) ?? SEARCH_FIELDS[0]!;
  return { id, field: info.path, type: 'must', match: defaultMatch(info), text: '', picked: [], dateFrom: '', dateTo: '' };
}

function rowFromFilter(id: string, filter: SearchFilter): FilterRow {
  const info = fieldInfo(filter.field);
  const values = filter.string_values ?? [];
  const isEnum = info?.type === 'enum';
  return {
    id,
    field: filter.field,
    type: filter.type,
    match: info?.type === 'date' && filter.match_type === 'fuzzy' ? 'exact' : filter.match_type,
    text: isEnum ? '' : valueListText(values),
    picked: isEnum ? [...values] : [],
    dateFrom: filter.date_from ?? '',
    dateTo: filter.date_to ?? '',
  };
}

/** The builder showing these filters: loose ones first, then one box per `job_group`, in order of appearance. */
export function builderFromFilters(filters: readonly SearchFilter[], firstId = 1): BuilderState {
  let next = firstId;
  const id = (prefix: string) => `${prefix}${next++}`;
  const loose: FilterRow[] = [];
  const boxes = new Map<number, JobBox>();
  const touched: Record<string, true> = {};
  for (const filter of filters) {
    const row = rowFromFilter(id('r'), filter);
    touched[row.id] = true;
    if (filter.job_group === undefined) {
      loose.push(row);
      continue;
    }
    let box = boxes.get(filter.job_group);
    if (!box) {
      box = { id: id('b'), rows: [] };
      boxes.set(filter.job_group, box);
    }
    box.rows.push(row);
  }
  return { loose, boxes: [...boxes.values()], touched, nextId: next };
}

function mapRows(state: BuilderState, map: (row: FilterRow) => FilterRow): BuilderState {
  return { ...state, loose: state.loose.map(map), boxes: state.boxes.map((box) => ({ ...box, rows: box.rows.map(map) })) };
}

export function findRow(state: BuilderState, rowId: string): { row: FilterRow; boxId: string | null } | null {
  const loose = state.loose.find((row) => row.id === rowId);
  if (loose) return { row: loose, boxId: null };
  for (const box of state.boxes) {
    const row = box.rows.find((r) => r.id === rowId);
    if (row) return { row, boxId: box.id };
  }
  return null;
}

function withoutRow(state: BuilderState, rowId: string): BuilderState {
  return { ...state, loose: state.loose.filter((row) => row.id !== rowId), boxes: state.boxes.map((box) => ({ ...box, rows: box.rows.filter((row) => row.id !== rowId) })) };
}

function dropEmptyBoxes(state: BuilderState): BuilderState {
  return state.boxes.every((box) => box.rows.length > 0) ? state : { ...state, boxes: state.boxes.filter((box) => box.rows.length > 0) };
}

function touch(state: BuilderState, rowId: string): BuilderState {
  return state.touched[rowId] ? state : { ...state, touched: { ...state.touched, [rowId]: true } };
}

export function builderReducer(state: BuilderState, action: BuilderAction): BuilderState {
  switch (action.type) {
    case 'addRow': {
      const id = `r${state.nextId}`;
      const inBox = action.boxId !== null;
      const field = action.field ?? 'jobs.title';
      const row = newRow(id, inBox && !fieldInfo(field)?.job ? 'jobs.title' : field);
      const next = { ...state, nextId: state.nextId + 1 };
      if (!inBox) return { ...next, loose: [...state.loose, row] };
      return { ...next, boxes: state.boxes.map((box) => (box.id === action.boxId ? { ...box, rows: [...box.rows, row] } : box)) };
    }
    case 'addBox': {
      const box: JobBox = { id: `b${state.nextId}`, rows: [newRow(`r${state.nextId + 1}`, 'jobs.company.social')] };
      return { ...state, nextId: state.nextId + 2, boxes: [...state.boxes, box] };
    }
    case 'removeRow': {
      // An emptied box has nothing to group: it goes too, so no blank box is left behind.
      return dropEmptyBoxes(withoutRow(state, action.rowId));
    }
    case 'setField': {
      const info = fieldInfo(action.field);
      if (!info) return state;
      const found = findRow(state, action.rowId);
      if (!found || (found.boxId !== null && !info.job)) return state;
      const changed = mapRows(state, (row) => {
        if (row.id !== action.rowId) return row;
        const before = fieldInfo(row.field);
        const keepsValues = before !== undefined && before.type !== 'enum' && before.type !== 'date' && info.type !== 'enum' && info.type !== 'date';
        return {
          ...row,
          field: info.path,
          match: row.match === 'exists' || (before?.type === info.type && offeredMatches(info).includes(row.match)) ? row.match : defaultMatch(info),
          text: keepsValues ? row.text : '',
          picked: info.type === 'enum' && before?.path === info.path ? row.picked : [],
          dateFrom: info.type === 'date' ? row.dateFrom : '',
          dateTo: info.type === 'date' ? row.dateTo : '',
        };
      });
      return touch(changed, action.rowId);
    }
    case 'updateRow':
      return touch(
        mapRows(state, (row) => (row.id === action.rowId ? { ...row, ...action.patch } : row)),
        action.rowId,
      );
    case 'moveRow': {
      const found = findRow(state, action.rowId);
      if (!found) return state;
      const isJob = fieldInfo(found.row.field)?.job ?? false;
      if ((action.to.kind !== 'loose' && !isJob) || (action.to.kind === 'loose' && found.boxId === null)) return state;
      const rest = withoutRow(state, action.rowId);
      switch (action.to.kind) {
        case 'loose':
          return dropEmptyBoxes({ ...rest, loose: [...rest.loose, found.row] });
        case 'box': {
          const target = action.to.boxId;
          if (target === found.boxId || !state.boxes.some((box) => box.id === target)) return state;
          return dropEmptyBoxes({ ...rest, boxes: rest.boxes.map((box) => (box.id === target ? { ...box, rows: [...box.rows, found.row] } : box)) });
        }
        case 'newBox':
          return dropEmptyBoxes({ ...rest, nextId: state.nextId + 1, boxes: [...rest.boxes, { id: `b${state.nextId}`, rows: [found.row] }] });
      }
      return state;
    }
    case 'ungroupBox': {
      const box = state.boxes.find((b) => b.id === action.boxId);
      if (!box) return state;
      return { ...state, loose: [...state.loose, ...box.rows], boxes: state.boxes.filter((b) => b.id !== action.boxId) };
    }
    case 'load':
      // Numbering goes on from the old rows: a reused id would hand an old row's open dialog to a new row.
      return builderFromFilters(action.filters, state.nextId);
    case 'clear':
      return { ...emptyBuilder(), nextId: state.nextId };
  }
}

/** One row as the service takes it. */
export function filterOfRow(row: FilterRow, jobGroup: number | null): SearchFilter {
  const info = fieldInfo(row.field);
  const filter: SearchFilter = { field: row.field, type: row.type, match_type: row.match };
  if (row.match !== 'exists') {
    if (info?.type === 'date') {
      if (row.dateFrom !== '') filter.date_from = row.dateFrom;
      if (row.dateTo !== '') filter.date_to = row.dateTo;
    } else if (info?.type === 'enum') {
      // In the vocabulary's order, so the same choice always makes the same request (and hits the cache).
      filter.string_values = [...info.values!.filter((v) => row.picked.includes(v)), ...row.picked.filter((v) => !info.values!.includes(v))];
    } else {
      filter.string_values = parseValueList(row.text).values;
    }
  }
  if (jobGroup !== null) filter.job_group = jobGroup;
  return filter;
}

export interface BuiltRequest {
  filters: SearchFilter[];
  /** The builder row of each filter, by index. */
  rowIds: string[];
}

/** The filters to send: loose rows in order, then each non-empty box as job_group 1, 2, ... */
export function filtersOfBuilder(state: BuilderState): BuiltRequest {
  const filters: SearchFilter[] = [];
  const rowIds: string[] = [];
  for (const row of state.loose) {
    filters.push(filterOfRow(row, null));
    rowIds.push(row.id);
  }
  let group = 0;
  for (const box of state.boxes) {
    if (box.rows.length === 0) continue;
    group++;
    for (const row of box.rows) {
      filters.push(filterOfRow(row, group));
      rowIds.push(row.id);
    }
  }
  return { filters, rowIds };
}

export interface BuilderProblems {
  /** Problems of the whole list ("Add at least one filter."). */
  list: string[];
  byRow: Record<string, string[]>;
  count: number;
}

/** validateFilters' messages, each put beside the row it names (without the "Filter 3 (jobs.title):" prefix). */
export function builderProblems(request: BuiltRequest): BuilderProblems {
  const list: string[] = [];
  const byRow: Record<string, string[]> = {};
  const problems = validateFilters(request.filters);
  for (const problem of problems) {
    const rowId = problem.index === null ? undefined : request.rowIds[problem.index];
    if (rowId === undefined) {
      list.push(problem.message);
      continue;
    }
    (byRow[rowId] ??= []).push(sentence(problem.message.replace(/^Filter \d+ \(.*?\): /, '')));
  }
  return { list, byRow, count: problems.length };
}

function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** The request body as the service takes it, for people who know the API. */
export function requestJson(filters: readonly SearchFilter[]): string {
  return JSON.stringify({ filters }, null, 2);
}

export function rowCount(state: BuilderState): number {
  return state.loose.length + state.boxes.reduce((sum, box) => sum + box.rows.length, 0);
}
