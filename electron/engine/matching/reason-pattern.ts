// A row's reason pattern: the kind of row (clear, or its guard) and how its best candidate compares with it (name
// level, company level, an e-mail or profile hit, a rival at the company). Rows of one pattern are "rows like this":
// a reviewer decides a group after checking a few, and what they decide is learned per pattern (learned-model.ts).
import type { RowAssessment } from './assess-row';
import type { RowKind } from './calibrate';

/**
 * The kinds a learned pattern may lift: a near name, a company not found on the record, a clear row below the
 * threshold. Twins, conflicting names, several hits and a name without a company always stay with the reviewer.
 */
export const LEARNABLE_KINDS: ReadonlySet<RowKind> = new Set<RowKind>(['clear', 'near_name', 'not_at_company']);

/** Name levels that still point at the person (not another first or last name). */
const NAME_AGREES = new Set(['exact', 'first_last', 'nickname', 'typo', 'initial']);
const AT_COMPANY = new Set(['current_same', 'past_same', 'current_close', 'past_close']);

/** The pattern key of an assessed row ("near_name|typo|current_same|none|alone"), or null when it has no candidates. */
export function reasonPattern(assessment: RowAssessment): string | null {
  const best = assessment.candidates[0];
  if (!best || assessment.kind === null) return null;
  const { name, company, email, profile } = best.levels;
  const hit = email === 'found_by' || email === 'record_same' ? 'email' : profile === 'same' ? 'profile' : 'none';
  // Another candidate who could be the person at the sheet's company: such rows are never lifted by what was learned.
  const rival = assessment.candidates.slice(1).some((c) => NAME_AGREES.has(c.levels.name) && AT_COMPANY.has(c.levels.company));
  return [assessment.kind, name, company, hit, rival ? 'rival' : 'alone'].join('|');
}

/** Whether rows of this pattern may be lifted by what was learned. */
export function learnablePattern(pattern: string): boolean {
  const [kind, , , , rival] = pattern.split('|');
  return LEARNABLE_KINDS.has(kind as RowKind) && rival === 'alone';
}

const KIND_WORDS: Partial<Record<RowKind, string>> = {
  twins: 'with namesakes at the company',
  no_company: 'with a name but no company',
  no_name: 'without a name',
  no_such_name: 'where no candidate has the name',
  hit_other_name: 'whose e-mail or profile belongs to someone with another name',
  hit_family_name: 'whose e-mail or profile belongs to a relative',
  several_hits: 'whose e-mail or profile found several people',
};
const NAME_WORDS: Record<string, string> = {
  exact: 'the same name',
  first_last: 'a middle name on one side',
  nickname: 'a nickname',
  typo: 'a near name',
  initial: 'only an initial',
  last_only: 'another first name',
  first_only: 'another last name',
  differs: 'another name',
  missing: 'no name on record',
};
const COMPANY_WORDS: Record<string, string> = {
  current_same: 'at the same company',
  past_same: 'who left the company (a stale company)',
  current_close: 'at a company with a close name',
  past_close: 'who left a company with a close name',
  differs: 'not at the company',
  missing: 'with no company to compare',
};

/** One comparison level in words: "a near name", "at the same company", "e-mail found by". */
export function levelWords(comparison: string, level: string): string {
  const words = comparison === 'name' ? NAME_WORDS[level] : comparison === 'company' ? COMPANY_WORDS[level] : undefined;
  return words ?? `${comparison.replace(/([A-Z])/gu, ' $1').toLowerCase()} ${level.replaceAll('_', ' ')}`;
}

/** A pattern in words, to follow "rows": "with a near name at the same company". */
export function patternWords(pattern: string): string {
  const [kind, name, company, hit, rival] = pattern.split('|') as [RowKind, string, string, string, string];
  const words = KIND_WORDS[kind] ?? `with ${NAME_WORDS[name] ?? name} ${COMPANY_WORDS[company] ?? company}`;
  const found = hit === 'email' ? ', found by e-mail' : hit === 'profile' ? ', found by profile link' : '';
  return `${words}${found}${rival === 'rival' && kind !== 'twins' ? ', beside a rival at the company' : ''}`;
}
