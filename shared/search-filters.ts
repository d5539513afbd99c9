// A criteria search's filters as the service takes them, with validation whose messages a
// user understands. Shared so the filter builder can say what is wrong before anything is sent.
import { z } from 'zod';
import { fieldInfo, SEARCH_FIELDS } from './fields';

export const searchFilter = z.object({
  field: z.string().min(1).max(200),
  type: z.enum(['must', 'must_not']),
  match_type: z.enum(['fuzzy', 'exact', 'exists']),
  string_values: z.array(z.string().max(1_000)).max(100_000).optional(),
  date_from: z.string().max(40).optional(),
  date_to: z.string().max(40).optional(),
  job_group: z.number().int().min(0).max(1_000).optional(),
});
export type SearchFilter = z.infer<typeof searchFilter>;

export const searchFilters = z.array(searchFilter).min(1, 'Add at least one filter.').max(200);

export interface FilterProblem {
  /** Index of the filter in the list, or null for a problem of the whole list. */
  index: number | null;
  message: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Every problem of a filter list, each named by its filter and field; empty when the list can be sent. */
export function validateFilters(filters: SearchFilter[]): FilterProblem[] {
  const problems: FilterProblem[] = [];
  if (filters.length === 0) problems.push({ index: null, message: 'Add at least one filter.' });
  filters.forEach((filter, index) => {
    const say = (message: string) => problems.push({ index, message: `Filter ${index + 1} (${filter.field || 'no field'}): ${message}` });
    const info = fieldInfo(filter.field);
    if (!info) {
      say(`"${filter.field}" is not a field a search can use. Fields: ${SEARCH_FIELDS.map((f) => f.path).join(', ')}.`);
      return;
    }
    if (!info.matchTypes.includes(filter.match_type)) {
      say(`${info.label} cannot be matched "${filter.match_type}"; use ${info.matchTypes.join(' or ')}.`);
    }
    const values = filter.string_values;
    const hasDates = filter.date_from !== undefined || filter.date_to !== undefined;
    if (filter.match_type === 'exists') {
      if (values?.length || hasDates) say('"exists" takes no values or dates: it only asks whether the field is there.');
    } else if (info.type === 'date') {
      if (values?.length) say('a date field takes a date range (from / to), not a list of values.');
      if (!hasDates) say('give a date from, a date to, or both.');
    } else {
      if (hasDates) say(`${info.label} is not a date: it takes values, not a date range.`);
      if (!values || values.length === 0) say('the list of values is empty.');
      else if (values.some((v) => v.trim() === '')) say('one of the values is blank.');
      else if (info.values) {
        const unknown = values.filter((v) => !info.values!.includes(v));
        if (unknown.length) say(`"${unknown[0]}" is not a ${info.label.toLowerCase()}; use one of: ${info.values.join(', ')}.`);
      }
    }
    for (const key of ['date_from', 'date_to'] as const) {
      const value = filter[key];
      if (value !== undefined && !isCalendarDate(value)) {
        say(`${key === 'date_from' ? 'the date from' : 'the date to'} "${value}" is not a date written YYYY-MM-DD.`);
      }
    }
    if (filter.date_from && filter.date_to && isCalendarDate(filter.date_from) && isCalendarDate(filter.date_to) && filter.date_from > filter.date_to) {
      say(`the date from (${filter.date_from}) is after the date to (${filter.date_to}).`);
    }
    if (filter.job_group !== undefined && !info.job) {
      say(`${info.label} is not a field of a job, so it cannot be in a "same job" group.`);
    }
  });
  // A group must constrain one job: "must_not" inside a group would ask for a job that lacks a value, which the
  // service reads differently from "no job has it". Keep groups to positive filters.
  const groups = new Map<number, number[]>();
  filters.forEach((f, i) => {
    if (f.job_group !== undefined) groups.set(f.job_group, [...(groups.get(f.job_group) ?? []), i]);
  });
  for (const [group, members] of groups) {
    if (members.some((i) => filters[i]!.type === 'must_not')) {
      problems.push({ index: members[0]!, message: `Same-job group ${group}: "must not" filters cannot be grouped; put them outside the group.` });
    }
  }
  return problems;
}
