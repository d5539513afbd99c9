// Ready-made criteria searches: the user fills in a few values, the template writes the filters (grouped into one
// job where the question is about one job). The filter builder, the engine and the CLI all build them here.
import { fieldInfo } from './fields';
import { isCalendarDate, type SearchFilter } from './search-filters';

export const SEARCH_TEMPLATE_IDS = ['left-companies', 'function-at-companies', 'held-title'] as const;
export type SearchTemplateId = (typeof SEARCH_TEMPLATE_IDS)[number];

export interface TemplateParam {
  key: string;
  label: string;
  /** A list of values for `field`, or one date. */
  kind: 'values' | 'date';
  field: string;
}

export type TemplateValues = Record<string, string | string[] | undefined>;

export interface SearchTemplate {
  id: SearchTemplateId;
  label: string;
  description: string;
  params: readonly TemplateParam[];
  build(values: TemplateValues): { filters: SearchFilter[]; name: string };
}

const COMPANIES: TemplateParam = { key: 'companies', label: 'Companies (profile slugs or company page links)', kind: 'values', field: 'jobs.company.social' };

export const SEARCH_TEMPLATES: readonly SearchTemplate[] = [
  {
    id: 'left-companies',
    label: 'Left these companies since',
    description: 'Everyone whose job at one of these companies ended on or after the date (the same job: not a person who left another company then).',
    params: [COMPANIES, { key: 'since', label: 'Left on or after', kind: 'date', field: 'jobs.ended_at' }],
    build(v) {
      const companies = list(v.companies);
      const since = one(v.since);
      return {
        filters: [
          { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: companies, job_group: 1 },
          { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: since, job_group: 1 },
        ],
        name: `Left ${count(companies, 'companies')} since ${since}`,
      };
    },
  },
  {
    id: 'function-at-companies',
    label: 'Works in this function at these companies',
    description:
      'Everyone with a job in one of these functions at one of these companies (the same job). Past jobs count too: the job columns of the results say when it ended.',
    params: [{ key: 'functions', label: 'Functions', kind: 'values', field: 'jobs.function' }, COMPANIES],
    build(v) {
      const functions = list(v.functions);
      const companies = list(v.companies);
      return {
        filters: [
          { field: 'jobs.function', type: 'must', match_type: 'exact', string_values: functions, job_group: 1 },
          { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: companies, job_group: 1 },
        ],
        name: `${count(functions, 'functions')} at ${count(companies, 'companies')}`,
      };
    },
  },
  {
    id: 'held-title',
    label: 'Has held this title',
    description: 'Everyone who holds or held a job with one of these titles (every word of a title, small typos forgiven).',
    params: [{ key: 'titles', label: 'Job titles', kind: 'values', field: 'jobs.title' }],
    build(v) {
      const titles = list(v.titles);
      return {
        filters: [{ field: 'jobs.title', type: 'must', match_type: 'fuzzy', string_values: titles }],
        name: `Has held the title ${titles.length === 1 ? `"${titles[0]}"` : count(titles, 'titles')}`,
      };
    },
  },
];

export function searchTemplate(id: string): SearchTemplate | undefined {
  return SEARCH_TEMPLATES.find((t) => t.id === id);
}

/** What is missing or malformed in a template's values, in words; empty when `build` can run. */
export function templateProblems(template: SearchTemplate, values: TemplateValues): string[] {
  const problems: string[] = [];
  for (const p of template.params) {
    const label = p.label.replace(/\s*\(.*\)$/, '');
    if (p.kind === 'date') {
      const value = one(values[p.key]);
      if (value === '') problems.push(`${label}: give a date.`);
      else if (!isCalendarDate(value)) problems.push(`${label}: "${value}" is not a date written YYYY-MM-DD.`);
    } else if (list(values[p.key]).length === 0) {
      problems.push(`${label}: give at least one ${fieldInfo(p.field)?.label.toLowerCase() ?? 'value'}.`);
    }
  }
  return problems;
}

function list(value: string | string[] | undefined): string[] {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return items.map((s) => s.trim()).filter((s) => s !== '');
}

function one(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).trim();
}

/** The one item itself, or how many there are. */
function count(items: string[], many: string): string {
  return items.length === 1 ? items[0]! : `${items.length} ${many}`;
}
