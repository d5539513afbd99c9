import type { FindQuery, Mapping, Strategy } from '../../../shared/model';
import { type EmailResult, type SlugResult, foldWhitespace, fullNameFrom, isPlaceholder, normalizeEmail, profileSlugFromUrl } from './normalize';

/**
 * One row's values, normalized. `email`/`profile` are null when no column is mapped to them; a mapped but
 * blank cell gives a result with reason 'empty'. Placeholders ("n/a", "-", "unknown") count as blank.
 * `name` and `company` are whitespace-folded as typed, null when blank.
 */
export interface RowInput {
  email: EmailResult | null;
  profile: SlugResult | null;
  name: string | null;
  company: string | null;
  /** Where the person lives, as the sheet says it (a city, a country, or both); null when not mapped or blank. */
  location: string | null;
}

export interface PlannedQuery {
  strategy: Strategy;
  query: FindQuery;
}

function cellAt(cells: string[], column: number | undefined): string | undefined {
  if (column === undefined || !Number.isInteger(column) || column < 0 || column >= cells.length) return undefined;
  const value: unknown = cells[column];
  const s = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  return isPlaceholder(s) ? '' : s;
}

// Called for every row of a sheet when planning: no closure or object made per row beyond the result.
export function rowInput(cells: string[], mapping: Mapping): RowInput {
  const email = mapping.email === undefined ? null : normalizeEmail(cellAt(cells, mapping.email) ?? '');
  const profile = mapping.profile === undefined ? null : profileSlugFromUrl(cellAt(cells, mapping.profile) ?? '');
  const name = fullName(cellAt(cells, mapping.fullName), cellAt(cells, mapping.firstName), cellAt(cells, mapping.lastName));
  const company = foldWhitespace(cellAt(cells, mapping.company) ?? '') || null;
  const location = mapping.location === undefined ? null : foldWhitespace(cellAt(cells, mapping.location) ?? '') || null;
  return { email, profile, name, company, location };
}

/** fullNameFrom without the object it takes. */
function fullName(full: string | undefined, first: string | undefined, last: string | undefined): string | null {
  const folded = foldWhitespace(full ?? '');
  if (folded) return folded;
  if (first === undefined && last === undefined) return null;
  return fullNameFrom({ firstName: first, lastName: last });
}

function queryFor(strategy: Strategy, input: RowInput): FindQuery | null {
  switch (strategy) {
    case 'email':
      return input.email?.ok ? { fields: [{ field_name: 'email_address', search_term: input.email.email }] } : null;
    case 'social':
      // The service finds a profile by its slug only, never by the URL.
      return input.profile?.ok ? { fields: [{ field_name: 'social', search_term: input.profile.slug }] } : null;
    case 'name+company':
      return input.name && input.company
        ? { fields: [{ field_name: 'name', search_term: input.name }, { field_name: 'company.name', search_term: input.company }] }
        : null;
    case 'name':
      return input.name ? { fields: [{ field_name: 'name', search_term: input.name }] } : null;
    default:
      return null;
  }
}

/** The row's queries in the order of `strategies`; a strategy whose inputs are missing or invalid is skipped. */
export function plannedQueries(input: RowInput, strategies: Strategy[]): PlannedQuery[] {
  const planned: PlannedQuery[] = [];
  const seen = new Set<Strategy>();
  for (const strategy of strategies) {
    if (seen.has(strategy)) continue;
    seen.add(strategy);
    const query = queryFor(strategy, input);
    if (query) planned.push({ strategy, query });
  }
  return planned;
}

/** What is wrong with the row's inputs, in words a user can act on. Blank cells are not problems. */
export function rowProblems(input: RowInput): string[] {
  const problems: string[] = [];
  if (input.email && !input.email.ok && input.email.reason !== 'empty') problems.push(input.email.message);
  if (input.profile && !input.profile.ok && input.profile.reason !== 'empty') problems.push(input.profile.message);
  return problems;
}
