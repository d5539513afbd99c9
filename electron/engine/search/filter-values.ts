// What users paste into a filter (a column of profile links, "linkedin.com/company/acme/", " engineering ") turned
// into what the service matches on. Strict in what we send: never a URL where a slug belongs.
import { fieldInfo } from '../../../shared/fields';
import type { FilterProblem, SearchFilter } from '../../../shared/search-filters';
import { foldWhitespace, profileSlugFromUrl } from '../matching';

export type ValueResult = { ok: true; value: string } | { ok: false; message: string };

// Quotes, brackets and trailing separators that wrap a value copied from a formatted sheet or a mail.
const WRAPPERS = /^[\s"'`“”‘’«»<>()[\]]+|[\s"'`“”‘’«»<>()[\],;]+$/gu;
const LINKEDIN_LINK = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^/?#@\s]*@)?(?:[\p{L}\p{N}-]+\.)*linkedin\.com\.?(?::\d+)?(?=[/?#]|$)/iu;
const COMPANY_PATH = /^\/?(company|school|showcase)\/([^/?#]+)/iu;
const ANY_LINK = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/iu;

/** The company profile slug of `linkedin.com/company/<slug>` (or `/school/`, `/showcase/`), or a bare slug as typed. */
export function companySlugFromText(input: string): ValueResult {
  const s = unwrap(input);
  if (s === '') return { ok: false, message: 'empty' };
  const link = LINKEDIN_LINK.exec(s);
  const path = link ? s.slice(link[0].length) : COMPANY_PATH.test(s) ? s : null;
  if (path !== null) {
    const page = COMPANY_PATH.exec(path);
    if (!page) {
      const isPerson = /^\/?(?:in|pub)\//iu.test(path);
      return { ok: false, message: isPerson ? `a person's profile link, not a company page: ${shown(input)}` : `a LinkedIn link without a company page (/company/...): ${shown(input)}` };
    }
    const slug = decode(page[2]!);
    if (slug === null || slug.trim() === '') return { ok: false, message: `a company link whose slug cannot be read: ${shown(input)}` };
    return { ok: true, value: slug.normalize('NFC').toLowerCase() };
  }
  if (ANY_LINK.test(s) || /^[^\s/]+\.[a-z]{2,}\//iu.test(s)) return { ok: false, message: `not a LinkedIn company link: ${shown(input)}` };
  if (/\s/u.test(s)) return { ok: false, message: `"${shown(input)}" has spaces: a company profile slug is the part after linkedin.com/company/` };
  if (s.includes('/')) return { ok: false, message: `not a company profile slug: ${shown(input)}` };
  return { ok: true, value: s.normalize('NFC').toLowerCase() };
}

/**
 * One value normalized for the field it filters: person profile slugs through the matching module's slug logic,
 * company slugs from company links, enum values spelled as in the vocabulary, text with its whitespace folded.
 */
export function normalizeValue(field: string, raw: string): ValueResult {
  const info = fieldInfo(field);
  const folded = foldWhitespace(raw);
  if (folded === '') return { ok: false, message: 'empty' };
  if (!info) return { ok: true, value: folded };
  if (info.type === 'slug') {
    if (info.path === 'social') {
      const slug = profileSlugFromUrl(raw);
      return slug.ok ? { ok: true, value: slug.slug } : { ok: false, message: slug.message };
    }
    return companySlugFromText(raw);
  }
  if (info.type === 'enum' && info.values) {
    const wanted = folded.toLowerCase();
    const known = info.values.find((v) => v.toLowerCase() === wanted);
    return { ok: true, value: known ?? folded };
  }
  return { ok: true, value: folded };
}

export interface NormalizedValues {
  values: string[];
  /** Non-blank values given, before duplicates were dropped. */
  given: number;
  problems: { value: string; message: string }[];
}

/** Normalizes a list for a field: blanks dropped, duplicates (after normalizing) kept once, in first-seen order. */
export function normalizeValues(field: string, raw: readonly string[]): NormalizedValues {
  const values: string[] = [];
  const seen = new Set<string>();
  const problems: { value: string; message: string }[] = [];
  let given = 0;
  const caseless = fieldInfo(field)?.type === 'text';
  for (const value of raw) {
    const result = normalizeValue(field, value);
    if (!result.ok) {
      if (result.message !== 'empty') {
        given++;
        problems.push({ value, message: result.message });
      }
      continue;
    }
    given++;
    const key = caseless ? result.value.toLowerCase() : result.value;
    if (seen.has(key)) continue;
    seen.add(key);
    values.push(result.value);
  }
  return { values, given, problems };
}

/** The filters with every value list normalized; a value that cannot be used is a problem, named by its filter. */
export function normalizeFilters(filters: readonly SearchFilter[]): { filters: SearchFilter[]; problems: FilterProblem[] } {
  const problems: FilterProblem[] = [];
  const normalized = filters.map((filter, index) => {
    const out: SearchFilter = { field: filter.field.trim(), type: filter.type, match_type: filter.match_type };
    if (filter.string_values !== undefined) {
      const { values, problems: bad } = normalizeValues(out.field, filter.string_values);
      for (const p of bad.slice(0, 3)) problems.push({ index, message: `Filter ${index + 1} (${out.field}): ${p.message}.` });
      if (bad.length > 3) problems.push({ index, message: `Filter ${index + 1} (${out.field}): ${bad.length - 3} more values like these cannot be used.` });
      out.string_values = values;
    }
    if (filter.date_from !== undefined) out.date_from = filter.date_from.trim();
    if (filter.date_to !== undefined) out.date_to = filter.date_to.trim();
    if (filter.job_group !== undefined) out.job_group = filter.job_group;
    return out;
  });
  return { filters: normalized, problems };
}

function unwrap(input: string): string {
  let s = foldWhitespace(input);
  for (let previous = ''; previous !== s; ) {
    previous = s;
    s = s.replace(WRAPPERS, '');
  }
  return s;
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

function shown(input: string): string {
  const s = foldWhitespace(input);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}
