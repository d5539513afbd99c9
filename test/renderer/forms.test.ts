import { describe, expect, it } from 'vitest';
import { emptyProfileForm, profileFormToInput } from '../../renderer/src/features/account/profile-form-values';
import { defaultExportName, exportInputFor } from '../../renderer/src/features/export/export-choice';
import { settingsFromForm, settingsToForm } from '../../renderer/src/features/settings/settings-form';
import { DEFAULT_SETTINGS } from '../../shared/model';
import { exportProgressParts, exportProgressText, planProgressParts, planProgressText } from '../../shared/progress';

describe('profile form', () => {
  const valid = { ...emptyProfileForm(false), name: 'Work', baseUrl: 'https://gotlivedata.io', orgId: 'o_acme', login: 'client-1', secret: 's3cret' };

  it('builds the contract input for a service account', () => {
    const result = profileFormToInput(valid);
    expect(result).toEqual({ ok: true, input: { name: 'Work', baseUrl: 'https://gotlivedata.io', orgId: 'o_acme', kind: 'service_account', login: 'client-1', secret: 's3cret' } });
  });

  it('sends no login for an API key, and asks for the secret by its name', () => {
    const result = profileFormToInput({ ...valid, kind: 'api_key', login: 'ignored', secret: '' });
    expect(result).toEqual({ ok: false, errors: { secret: 'Enter the API key' } });
    const ok = profileFormToInput({ ...valid, kind: 'api_key', login: 'ignored' });
    expect(ok.ok && ok.input.login).toBeNull();
  });

  it('uses the contract messages for a bad address or organization id', () => {
    const result = profileFormToInput({ ...valid, baseUrl: 'ftp://x', orgId: 'acme', name: ' ' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.orgId).toBe('An organization id starts with "o_"');
    expect(result.errors.baseUrl).toMatch(/https:\/\//);
    expect(result.errors.name).toBe('Give the profile a name');
  });

  it('keeps the stored secret when editing with an empty secret field', () => {
    const result = profileFormToInput({ ...valid, id: 'p1', secret: '' });
    expect(result.ok).toBe(true);
    expect(result.ok && 'secret' in result.input).toBe(false);
  });

  it('passes "this session only" through', () => {
    const result = profileFormToInput({ ...valid, sessionOnly: true });
    expect(result.ok && result.input.sessionOnly).toBe(true);
  });
});

describe('settings form', () => {
  it('round-trips the defaults', () => {
    const result = settingsFromForm(settingsToForm(DEFAULT_SETTINGS));
    expect(result).toEqual({ ok: true, patch: { concurrency: 4, cacheTtlDays: 30, autoAccept: DEFAULT_SETTINGS.autoAccept } });
  });

  it('reads confidences as percentages, with a comma as the decimal point', () => {
    const form = { ...settingsToForm(DEFAULT_SETTINGS), minConfidencePercent: '85', minLeadPercent: '12,5' };
    const result = settingsFromForm(form);
    expect(result.ok && result.patch.autoAccept).toEqual({ enabled: true, minConfidence: 0.85, minLead: 0.125 });
  });

  it('says what is wrong in words', () => {
    const result = settingsFromForm({ concurrency: '0', cacheTtlDays: '-1', autoAccept: false, minConfidencePercent: '40', minLeadPercent: 'x' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(['cacheTtlDays', 'concurrency', 'minConfidencePercent', 'minLeadPercent']);
  });
});

describe('saving a mapping', () => {
  it('says how far the planning of the queries is', () => {
    expect(planProgressText(null)).toBe('Planning the queries…');
    expect(planProgressText({ projectId: 1, rowsPlanned: 410_000, rowsTotal: 1_000_000, startedBy: 'mapping' })).toBe('Planning the queries… 41%');
    expect(planProgressText({ projectId: 1, rowsPlanned: 1_000_000, rowsTotal: 1_000_000, startedBy: 'mapping' })).toBe('Planning the queries… 100%');
  });

  it("says a plan a run or a read started for what it is, which the mapping screen shows without its Cancel", () => {
    expect(planProgressText({ projectId: 1, rowsPlanned: 410_000, rowsTotal: 1_000_000, startedBy: 'run' })).toBe('Planning the queries for a run… 41%');
    expect(planProgressText({ projectId: 1, rowsPlanned: 410_000, rowsTotal: 1_000_000, startedBy: 'read' })).toBe('Planning the queries to show the rows… 41%');
    // The run screen's own plan (its preview's) needs no reason: the screen says what it is for.
    expect(planProgressParts({ projectId: 1, rowsPlanned: 410_000, rowsTotal: 1_000_000, startedBy: 'read' }, false)).toEqual({ words: 'Planning the queries…', percent: 41 });
  });
});

describe('export', () => {
  const choice = { format: 'xlsx', scope: 'all', candidates: true, bom: true, delimiter: ',' } as const;

  it('says which file is being written and how far, then that it is saved', () => {
    const at = (part: 'matches' | 'candidates', rowsDone: number) => exportProgressText({ projectId: 1, choice, part, rowsDone, rowsTotal: 1_000_000 });
    expect(exportProgressText(null)).toBe('Exporting…');
    expect(at('matches', 0)).toBe('Writing the rows… 0%');
    expect(at('matches', 412_000)).toBe('Writing the rows… 41%');
    expect(at('matches', 999_999)).toBe('Writing the rows… 99%');
    expect(at('matches', 1_000_000)).toBe('Saving the rows…');
    expect(at('candidates', 120_000)).toBe('Writing the candidates… 12%');
  });

  it('keeps the words apart from the percent, so the window announces only the words when they change', () => {
    const parts = (rowsDone: number) => exportProgressParts({ projectId: 1, choice, part: 'matches', rowsDone, rowsTotal: 1_000_000 });
    expect(parts(412_000)).toEqual({ words: 'Writing the rows…', percent: 41 });
    expect(parts(413_000).words).toBe(parts(412_000).words);
    expect(parts(1_000_000)).toEqual({ words: 'Saving the rows…', percent: null });
    expect(exportProgressParts(null)).toEqual({ words: 'Exporting…', percent: null });
    expect(planProgressParts({ projectId: 1, rowsPlanned: 410_000, rowsTotal: 1_000_000, startedBy: 'mapping' })).toEqual({ words: 'Planning the queries…', percent: 41 });
    expect(planProgressParts(null)).toEqual({ words: 'Planning the queries…', percent: null });
  });

  it('suggests a file name safe on every OS', () => {
    expect(defaultExportName('people.csv', { format: 'xlsx', scope: 'matched' })).toBe('people - matched.xlsx');
    expect(defaultExportName('a/b:c*?', { format: 'csv', scope: 'all' })).toBe('a b c - all rows.csv');
    expect(defaultExportName('people.csv', { format: 'csv', scope: 'changed' })).toBe('people - changed at last refresh.csv');
    expect(defaultExportName('line\nbreak', { format: 'csv', scope: 'all' })).toBe('line break - all rows.csv');
    expect(defaultExportName('   ', { format: 'csv', scope: 'all' })).toBe('matchdesk - all rows.csv');
  });

  it('sends CSV options only for CSV', () => {
    const choice = { format: 'csv' as const, scope: 'all' as const, candidates: true, bom: false, delimiter: ';' as const };
    expect(exportInputFor(3, choice, '/tmp/x.csv')).toEqual({ projectId: 3, format: 'csv', scope: 'all', candidates: true, destination: '/tmp/x.csv', bom: false, delimiter: ';' });
    expect(exportInputFor(3, { ...choice, format: 'xlsx' }, null)).toEqual({ projectId: 3, format: 'xlsx', scope: 'all', candidates: true, destination: null });
  });
});
