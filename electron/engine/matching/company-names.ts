import { comparable } from './normalize';

// Legal-form words: "Acme Inc." and "ACME, LLC" are the same company to a reviewer.
export const LEGAL_FORMS = new Set([
  'inc', 'incorporated', 'ltd', 'limited', 'llc', 'llp', 'lp', 'plc', 'corp', 'corporation', 'co', 'company',
  'gmbh', 'mbh', 'ag', 'kg', 'ohg', 'ug', 'se', 'sa', 'sas', 'sarl', 'srl', 'spa', 'sl', 'bv', 'nv', 'oy', 'ab',
  'as', 'asa', 'aps', 'pty', 'pvt', 'pte', 'kk', 'sdn', 'bhd', 'cv', 'de', 'and',
]);

// Words so common in company names that sharing one says nothing about being the same company.
export const GENERIC_COMPANY_WORDS = new Set([
  'group', 'international', 'global', 'holding', 'holdings', 'technologies', 'technology', 'tech', 'solutions',
  'services', 'systems', 'consulting', 'partners', 'labs', 'software', 'digital', 'bank', 'university', 'institute',
  'capital', 'management', 'media', 'health', 'healthcare', 'industries', 'enterprises', 'associates', 'agency',
  'studio', 'studios', 'ventures', 'networks', 'of', 'for', 'in', 'at', 'america', 'europe', 'usa', 'uk',
]);

/**
 * A company name reduced for comparison: comparable() text without legal forms at either end
 * ("The Acme Co., Ltd." -> "acme"). A name made only of such words is kept whole.
 */
export function companyKey(name: string): string {
  const tokens = comparable(name).split(' ').filter(Boolean);
  let start = 0;
  let end = tokens.length;
  while (end > start + 1 && LEGAL_FORMS.has(tokens[end - 1]!)) end--;
  while (end > start + 1 && tokens[start] === 'the') start++;
  return tokens.slice(start, end).join(' ');
}
