import { describe, expect, it } from 'vitest';
import type { SearchFilter } from '../../shared/search-filters';
import { SEARCH_TEMPLATES, searchTemplate } from '../../shared/search-templates';
import {
  builderFromFilters,
  builderProblems,
  builderReducer,
  emptyBuilder,
  filtersOfBuilder,
  findRow,
  requestJson,
  type BuilderAction,
  type BuilderState,
} from '../../renderer/src/features/search/filter-builder-state';
import { templateValues } from '../../renderer/src/features/search/template-values';

function apply(state: BuilderState, ...actions: BuilderAction[]): BuilderState {
  return actions.reduce(builderReducer, state);
}

const allRowIds = (state: BuilderState) => [...state.loose, ...state.boxes.flatMap((box) => box.rows)].map((row) => row.id);

describe('the filter builder', () => {
  it('shows every template as the filters it builds, and sends exactly those filters back', () => {
    const values = { companies: ['acme', 'globex'], since: '2024-01-01', functions: ['Engineering'], titles: ['Data Engineer'] };
    for (const template of SEARCH_TEMPLATES) {
      const built = template.build(values).filters;
      expect(filtersOfBuilder(builderFromFilters(built)).filters, template.id).toEqual(built);
    }
  });

  it('turns "left these companies since" into one same-job box: both filters must hold for one job', () => {
    const { filters } = searchTemplate('left-companies')!.build({ companies: ['acme', 'globex'], since: '2024-01-01' });
    const state = builderFromFilters(filters);
    expect(state.loose).toEqual([]);
    expect(state.boxes).toHaveLength(1);
    expect(state.boxes[0]!.rows.map((row) => [row.field, row.text, row.dateFrom])).toEqual([
      ['jobs.company.social', 'acme\nglobex', ''],
      ['jobs.ended_at', '', '2024-01-01'],
    ]);
  });

  it('sends loose filters first, then each box as job_group 1, 2, … in order', () => {
    const filters: SearchFilter[] = [
      { field: 'jobs.title', type: 'must', match_type: 'fuzzy', string_values: ['cto'], job_group: 7 },
      { field: 'location', type: 'must', match_type: 'fuzzy', string_values: ['Berlin'] },
      { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: ['acme'], job_group: 3 },
      { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2020-01-01', job_group: 7 },
    ];
    const out = filtersOfBuilder(builderFromFilters(filters)).filters;
    expect(out.map((f) => [f.field, f.job_group])).toEqual([
      ['location', undefined],
      ['jobs.title', 1],
      ['jobs.ended_at', 1],
      ['jobs.company.social', 2],
    ]);
  });

  it('adds rows and boxes, and drops a box whose last row is removed', () => {
    let state = apply(emptyBuilder(), { type: 'addRow', boxId: null }, { type: 'addBox' });
    expect(state.loose).toHaveLength(1);
    expect(state.boxes).toHaveLength(1);
    const boxId = state.boxes[0]!.id;
    state = apply(state, { type: 'addRow', boxId });
    expect(state.boxes[0]!.rows.map((row) => row.field)).toEqual(['jobs.company.social', 'jobs.title']);
    for (const row of [...state.boxes[0]!.rows]) state = apply(state, { type: 'removeRow', rowId: row.id });
    expect(state.boxes).toEqual([]);
    expect(state.loose).toHaveLength(1);
  });

  it('moves a job filter into a box, a new box, and back out; a person field stays out of boxes', () => {
    let state = apply(emptyBuilder(), { type: 'addRow', boxId: null, field: 'jobs.title' }, { type: 'addRow', boxId: null, field: 'name' }, { type: 'addBox' });
    const [title, name] = state.loose.map((row) => row.id);
    const boxId = state.boxes[0]!.id;
    state = apply(state, { type: 'moveRow', rowId: title!, to: { kind: 'box', boxId } });
    expect(findRow(state, title!)?.boxId).toBe(boxId);
    expect(filtersOfBuilder(state).filters.find((f) => f.field === 'jobs.title')?.job_group).toBe(1);

    const refused = apply(state, { type: 'moveRow', rowId: name!, to: { kind: 'newBox' } });
    expect(refused).toBe(state);

    state = apply(state, { type: 'moveRow', rowId: title!, to: { kind: 'newBox' } });
    expect(state.boxes).toHaveLength(2);
    expect(findRow(state, title!)?.boxId).toBe(state.boxes[1]!.id);
    // Back out: the box it leaves is empty and goes.
    state = apply(state, { type: 'moveRow', rowId: title!, to: { kind: 'loose' } });
    expect(state.boxes).toHaveLength(1);
    expect(findRow(state, title!)?.boxId).toBeNull();
  });

  it('ungroups a box: its filters stay, each on any job', () => {
    const { filters } = searchTemplate('left-companies')!.build({ companies: ['acme'], since: '2024-01-01' });
    const state = builderFromFilters(filters);
    const ungrouped = apply(state, { type: 'ungroupBox', boxId: state.boxes[0]!.id });
    expect(ungrouped.boxes).toEqual([]);
    expect(filtersOfBuilder(ungrouped).filters.every((f) => f.job_group === undefined)).toBe(true);
    expect(filtersOfBuilder(ungrouped).filters).toHaveLength(2);
  });

  it('refuses a person field inside a box', () => {
    const state = apply(emptyBuilder(), { type: 'addBox' });
    const rowId = state.boxes[0]!.rows[0]!.id;
    expect(apply(state, { type: 'setField', rowId, field: 'location' })).toBe(state);
    expect(apply(state, { type: 'setField', rowId, field: 'no.such.field' })).toBe(state);
  });

  it('keeps typed values across text-like fields, and starts over for dates and vocabularies', () => {
    let state = apply(emptyBuilder(), { type: 'addRow', boxId: null, field: 'jobs.title' });
    const rowId = state.loose[0]!.id;
    state = apply(state, { type: 'updateRow', rowId, patch: { text: 'acme\nglobex' } });
    state = apply(state, { type: 'setField', rowId, field: 'jobs.company.social' });
    expect(state.loose[0]).toMatchObject({ field: 'jobs.company.social', match: 'exact', text: 'acme\nglobex' });
    state = apply(state, { type: 'setField', rowId, field: 'jobs.function' });
    expect(state.loose[0]).toMatchObject({ field: 'jobs.function', match: 'exact', text: '', picked: [] });
    state = apply(state, { type: 'setField', rowId, field: 'jobs.started_at' });
    expect(state.loose[0]).toMatchObject({ match: 'exact', dateFrom: '', dateTo: '' });
    state = apply(state, { type: 'setField', rowId, field: 'jobs.company.name' });
    expect(state.loose[0]!.match).toBe('fuzzy');
  });

  it('sends vocabulary picks in the vocabulary order (the same choice is the same request), and no values for "exists"', () => {
    let state = apply(emptyBuilder(), { type: 'addRow', boxId: null, field: 'jobs.function' });
    const rowId = state.loose[0]!.id;
    state = apply(state, { type: 'updateRow', rowId, patch: { picked: ['Sales and Support', 'Engineering'] } });
    expect(filtersOfBuilder(state).filters[0]!.string_values).toEqual(['Engineering', 'Sales and Support']);
    state = apply(state, { type: 'updateRow', rowId, patch: { match: 'exists' } });
    expect(filtersOfBuilder(state).filters[0]).toEqual({ field: 'jobs.function', type: 'must', match_type: 'exists' });
  });

  it('sends only the date bounds given', () => {
    let state = apply(emptyBuilder(), { type: 'addRow', boxId: null, field: 'jobs.ended_at' });
    const rowId = state.loose[0]!.id;
    state = apply(state, { type: 'updateRow', rowId, patch: { dateTo: '2023-12-31' } });
    expect(filtersOfBuilder(state).filters[0]).toEqual({ field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_to: '2023-12-31' });
  });

  it('puts each problem beside the row it is about, in words without the filter number', () => {
    let state = apply(emptyBuilder(), { type: 'addRow', boxId: null, field: 'jobs.title' }, { type: 'addRow', boxId: null, field: 'jobs.ended_at' });
    const [title, ended] = state.loose.map((row) => row.id);
    state = apply(state, { type: 'updateRow', rowId: ended!, patch: { dateFrom: '2024-05-01', dateTo: '2024-01-01' } });
    const problems = builderProblems(filtersOfBuilder(state));
    expect(problems.list).toEqual([]);
    expect(problems.byRow[title!]).toEqual(['The list of values is empty.']);
    expect(problems.byRow[ended!]).toEqual(['The date from (2024-05-01) is after the date to (2024-01-01).']);
    expect(problems.count).toBe(2);
  });

  it('says an empty builder has nothing to send, and names "must not" inside a same-job box', () => {
    expect(builderProblems(filtersOfBuilder(emptyBuilder())).list).toEqual(['Add at least one filter.']);
    let state = apply(emptyBuilder(), { type: 'addBox' });
    const rowId = state.boxes[0]!.rows[0]!.id;
    state = apply(state, { type: 'updateRow', rowId, patch: { text: 'acme', type: 'must_not' } });
    expect(builderProblems(filtersOfBuilder(state)).byRow[rowId]).toEqual([expect.stringContaining('"must not" filters cannot be grouped')]);
  });

  it('marks rows touched by edits and by loading, not rows just added', () => {
    let state = apply(emptyBuilder(), { type: 'addRow', boxId: null });
    const rowId = state.loose[0]!.id;
    expect(state.touched[rowId]).toBeUndefined();
    state = apply(state, { type: 'updateRow', rowId, patch: { text: 'x' } });
    expect(state.touched[rowId]).toBe(true);
    const loaded = apply(state, { type: 'load', filters: [{ field: 'name', type: 'must', match_type: 'fuzzy', string_values: ['Ada'] }] });
    expect(Object.keys(loaded.touched)).toEqual(allRowIds(loaded));
  });

  it('never hands an old row id to a loaded row (an open dialog would move to it)', () => {
    const before = apply(emptyBuilder(), { type: 'addRow', boxId: null }, { type: 'addBox' });
    const after = apply(before, { type: 'load', filters: [{ field: 'name', type: 'must', match_type: 'fuzzy', string_values: ['Ada'] }] });
    const old = new Set([...allRowIds(before), ...before.boxes.map((box) => box.id)]);
    expect(allRowIds(after).some((id) => old.has(id))).toBe(false);
    const ids = allRowIds(apply(after, { type: 'addRow', boxId: null }));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('shows the request as the service takes it', () => {
    const filters: SearchFilter[] = [{ field: 'name', type: 'must', match_type: 'fuzzy', string_values: ['Ada'] }];
    expect(JSON.parse(requestJson(filters))).toEqual({ filters });
  });
});

describe('a template form', () => {
  it('parses typed lists and keeps picks and dates as given', () => {
    const left = searchTemplate('left-companies')!;
    expect(templateValues(left, { companies: 'acme, globex', since: '2024-02-01' })).toEqual({ companies: ['acme', 'globex'], since: '2024-02-01' });
    const fn = searchTemplate('function-at-companies')!;
    expect(templateValues(fn, { functions: ['Engineering'], companies: 'acme\nacme' })).toEqual({ functions: ['Engineering'], companies: ['acme'] });
    expect(templateValues(left, {})).toEqual({ companies: [], since: '' });
  });
});
