import { describe, expect, it } from 'vitest';
import { plannedQueries, rowInput, rowProblems, type RowInput } from '../../../electron/engine/matching';
import { DEFAULT_STRATEGIES, STRATEGIES, type Mapping } from '../../../shared/model';

const mapping: Mapping = { fullName: 0, email: 1, profile: 2, company: 3 };

describe('rowInput', () => {
  it('normalizes each mapped cell', () => {
    const input = rowInput([' Jane\u00a0 Doe ', ' Jane@Acme.COM ', 'https://uk.linkedin.com/in/Jane-Doe-123/en', '  ACME\tInc. '], mapping);
    expect(input).toEqual({
      email: { ok: true, email: 'jane@acme.com' },
      profile: { ok: true, slug: 'jane-doe-123' },
      name: 'Jane Doe',
      company: 'ACME Inc.',
      location: null,
    });
    expect(rowInput(['Jane Doe', 'n/a', ' Berlin,  Germany '], { fullName: 0, company: 1, location: 2 })).toMatchObject({ company: null, location: 'Berlin, Germany' });
  });

  it('builds the name from first and last when there is no full name', () => {
    expect(rowInput(['Jane', 'Doe'], { firstName: 0, lastName: 1 }).name).toBe('Jane Doe');
    expect(rowInput(['', 'Jane', 'Doe'], { fullName: 0, firstName: 1, lastName: 2 }).name).toBe('Jane Doe');
    expect(rowInput(['J. Doe', 'Jane', 'Doe'], { fullName: 0, firstName: 1, lastName: 2 }).name).toBe('J. Doe');
  });

  it('tells an unmapped field (null) from a blank cell (empty)', () => {
    expect(rowInput(['Jane'], { fullName: 0 })).toEqual({ email: null, profile: null, name: 'Jane', company: null, location: null });
    const blank = rowInput(['', '', '', ''], mapping);
    expect(blank.email).toMatchObject({ ok: false, reason: 'empty' });
    expect(blank.profile).toMatchObject({ ok: false, reason: 'empty' });
    expect(blank.name).toBeNull();
    expect(blank.company).toBeNull();
  });

  it('treats placeholders as blank', () => {
    const input = rowInput(['N/A', '-', 'n/a', 'unknown'], mapping);
    expect(input.name).toBeNull();
    expect(input.company).toBeNull();
    expect(input.email).toMatchObject({ reason: 'empty' });
    expect(input.profile).toMatchObject({ reason: 'empty' });
  });

  it('copes with short rows and mappings past the end', () => {
    expect(rowInput(['Jane Doe'], mapping)).toMatchObject({ name: 'Jane Doe', company: null, email: { reason: 'empty' } });
    expect(rowInput([], { fullName: 7, company: -1 })).toEqual({ email: null, profile: null, name: null, company: null, location: null });
  });
});

describe('plannedQueries', () => {
  const full = rowInput(['Jane Doe', 'jane@acme.com', 'linkedin.com/in/jane-doe', 'Acme  Inc'], mapping);

  it('builds one query per strategy, in the order given', () => {
    expect(plannedQueries(full, [...STRATEGIES])).toEqual([
      { strategy: 'email', query: { fields: [{ field_name: 'email_address', search_term: 'jane@acme.com' }] } },
      { strategy: 'social', query: { fields: [{ field_name: 'social', search_term: 'jane-doe' }] } },
      { strategy: 'name+company', query: { fields: [{ field_name: 'name', search_term: 'Jane Doe' }, { field_name: 'company.name', search_term: 'Acme Inc' }] } },
      { strategy: 'name', query: { fields: [{ field_name: 'name', search_term: 'Jane Doe' }] } },
    ]);
    expect(plannedQueries(full, ['name', 'social', 'email']).map((p) => p.strategy)).toEqual(['name', 'social', 'email']);
    expect(plannedQueries(full, DEFAULT_STRATEGIES).map((p) => p.strategy)).toEqual(['email', 'social', 'name+company']);
  });

  it('sends names and companies as typed, only whitespace-folded', () => {
    const input = rowInput(['  José\u00a0MÜLLER ', '', '', ' Société  Générale '], mapping);
    const [planned] = plannedQueries(input, ['name+company']);
    expect(planned!.query.fields).toEqual([
      { field_name: 'name', search_term: 'José MÜLLER' },
      { field_name: 'company.name', search_term: 'Société Générale' },
    ]);
  });

  it('skips a strategy whose inputs are missing or invalid', () => {
    const input: RowInput = {
      email: { ok: false, reason: 'invalid', message: "invalid e-mail 'bob@'" },
      profile: { ok: false, reason: 'company_page', message: 'company page, not a profile: linkedin.com/company/acme' },
      name: 'Bob',
      company: null,
      location: null,
    };
    expect(plannedQueries(input, [...STRATEGIES])).toEqual([{ strategy: 'name', query: { fields: [{ field_name: 'name', search_term: 'Bob' }] } }]);
    expect(plannedQueries({ email: null, profile: null, name: null, company: 'Acme', location: null }, [...STRATEGIES])).toEqual([]);
    expect(plannedQueries(full, [])).toEqual([]);
  });

  it('name+company needs both', () => {
    expect(plannedQueries({ email: null, profile: null, name: 'Jane', company: null, location: null }, ['name+company'])).toEqual([]);
    expect(plannedQueries({ email: null, profile: null, name: null, company: 'Acme', location: null }, ['name+company'])).toEqual([]);
  });

  it('asks each strategy once even when listed twice', () => {
    expect(plannedQueries(full, ['email', 'email', 'name']).map((p) => p.strategy)).toEqual(['email', 'name']);
  });
});

describe('rowProblems', () => {
  it('names each unusable input', () => {
    const input = rowInput(['Bob', 'bob@', 'linkedin.com/company/acme', 'Acme'], mapping);
    expect(rowProblems(input)).toEqual(["invalid e-mail 'bob@'", 'company page, not a profile: linkedin.com/company/acme']);
  });

  it('reports other hosts and text that is not a slug', () => {
    expect(rowProblems(rowInput(['', '', 'https://twitter.com/bob', ''], mapping))).toEqual(['not a LinkedIn link (twitter.com): https://twitter.com/bob']);
    expect(rowProblems(rowInput(['', '', 'Bob Smith', ''], mapping))).toEqual(['not a profile link or slug: Bob Smith']);
  });

  it('is silent about blank and unmapped cells', () => {
    expect(rowProblems(rowInput(['', '', '', ''], mapping))).toEqual([]);
    expect(rowProblems(rowInput(['Bob'], { fullName: 0 }))).toEqual([]);
    expect(rowProblems(rowInput(['Bob', 'bob@acme.com', 'bob-smith', 'Acme'], mapping))).toEqual([]);
  });
});
