// Fuzzy text matching for find and search: accent/case folding, one-typo tolerance per token through a
// deletion neighbourhood (so no query ever scans the whole vocabulary), and company-name similarity.

/** Letters NFKD does not decompose into a base letter plus marks. */
const UNDECOMPOSED: Record<string, string> = { ß: 'ss', ł: 'l', ø: 'o', đ: 'd', æ: 'ae', œ: 'oe', þ: 'th', ð: 'd', ı: 'i', ħ: 'h', ŧ: 't' };

/** Lower-case ASCII words separated by single spaces: "Łukasz O'Brien-Nguyễn" -> "lukasz obrien nguyen". */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßłøđæœþðıħŧ]/g, (c) => UNDECOMPOSED[c])
    // Apostrophes join rather than split, so O'Brien and OBrien agree.
    .replace(/['’`´ʼ]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function foldedTokens(text: string): string[] {
  const folded = foldText(text);
  return folded === '' ? [] : folded.split(' ');
}

/** True when a and b differ by at most one insertion, deletion, substitution or swap of neighbours. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  if (a.length > b.length) [a, b] = [b, a];
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.slice(i) === b.slice(i + 1);
}

/** Similarity given to a token one typo away from the query token. */
export const TYPO_SIMILARITY = 0.85;

/** Short tokens ("li", "wu", "jo") only match exactly: one edit would make them match half the vocabulary. */
function typoAllowed(a: string, b: string): boolean {
  return Math.min(a.length, b.length) >= 3 && Math.max(a.length, b.length) >= 4;
}

/** Similarity given to an initial ("j") that starts a word of the candidate ("john"). */
export const INITIAL_SIMILARITY = 0.6;

/** How well a query token `a` matches a candidate token `b`: 1 same, TYPO_SIMILARITY one typo, INITIAL_SIMILARITY an initial, else 0. */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 1) return b.startsWith(a) ? INITIAL_SIMILARITY : 0;
  return typoAllowed(a, b) && withinOneEdit(a, b) ? TYPO_SIMILARITY : 0;
}

function deletions(token: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < token.length; i++) {
    const variant = token.slice(0, i) + token.slice(i + 1);
    if (out[out.length - 1] !== variant) out.push(variant);
  }
  return out;
}

export interface TokenMatch {
  id: number;
  similarity: number;
}

/**
 * Distinct folded tokens with a deletion neighbourhood: every token within one edit of a query token is found
 * by a handful of map look-ups (symmetric delete), whatever the vocabulary size.
 */
export class FuzzyVocabulary {
  readonly tokens: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly neighbours = new Map<string, number[]>();
  private readonly cache = new Map<string, TokenMatch[]>();

  intern(token: string): number {
    let id = this.ids.get(token);
    if (id === undefined) {
      id = this.tokens.length;
      this.tokens.push(token);
      this.ids.set(token, id);
      if (token.length >= 4) {
        for (const key of deletions(token)) {
          const list = this.neighbours.get(key);
          if (list) list.push(id);
          else this.neighbours.set(key, [id]);
        }
      }
    }
    return id;
  }

  idOf(token: string): number | undefined {
    return this.ids.get(token);
  }

  /** Tokens equal to or one typo away from `query`, best first. */
  lookup(query: string): readonly TokenMatch[] {
    const cached = this.cache.get(query);
    if (cached) return cached;
    const matches: TokenMatch[] = [];
    const exact = this.ids.get(query);
    if (exact !== undefined) matches.push({ id: exact, similarity: 1 });
    if (query.length >= 3) {
      const seen = new Set<number>(exact === undefined ? [] : [exact]);
      const consider = (id: number) => {
        if (seen.has(id)) return;
        seen.add(id);
        const token = this.tokens[id];
        if (typoAllowed(query, token) && withinOneEdit(query, token)) matches.push({ id, similarity: TYPO_SIMILARITY });
      };
      // Tokens one letter longer than the query list the query among their deletions.
      for (const id of this.neighbours.get(query) ?? []) consider(id);
      if (query.length >= 4) {
        for (const key of deletions(query)) {
          const shorter = this.ids.get(key);
          if (shorter !== undefined) consider(shorter);
          for (const id of this.neighbours.get(key) ?? []) consider(id);
        }
      }
    }
    if (this.cache.size > 100_000) this.cache.clear();
    this.cache.set(query, matches);
    return matches;
  }
}

/**
 * How well the query tokens cover the candidate's tokens, 0..1. Mostly "are all query words there", a little
 * "is the candidate not much more than that", so "John Smith" ranks "John Smith" above "John Paul Smith".
 */
export function coverageScore(matchedWeight: number, queryTokenCount: number, candidateTokenCount: number): number {
  if (queryTokenCount === 0 || candidateTokenCount === 0) return 0;
  return 0.7 * Math.min(1, matchedWeight / queryTokenCount) + 0.3 * Math.min(1, matchedWeight / candidateTokenCount);
}

/** Pairwise token-set similarity (no index), for checking one candidate against a query. */
export function tokenSetScore(queryTokens: readonly string[], candidateTokens: readonly string[]): { score: number; matched: number } {
  let weight = 0;
  let matched = 0;
  for (const q of queryTokens) {
    let best = 0;
    for (const c of candidateTokens) {
      const s = tokenSimilarity(q, c);
      if (s > best) best = s;
      if (best === 1) break;
    }
    if (best > 0) matched++;
    weight += best;
  }
  return { score: coverageScore(weight, queryTokens.length, candidateTokens.length), matched };
}

/** Words that say what kind of legal entity a company is, not which one. */
const LEGAL_WORDS = new Set([
  'inc', 'incorporated', 'llc', 'ltd', 'limited', 'gmbh', 'sa', 'ag', 'bv', 'nv', 'plc', 'corp', 'corporation', 'co',
  'company', 'srl', 'spa', 'aps', 'ab', 'as', 'asa', 'oy', 'sarl', 'sas', 'kg', 'the', 'and', 'pty', 'lp', 'llp',
]);

/**
 * German umlauts are written two ways in sheets, "Müller" and "Mueller": folding drops the dots, and the "e" of
 * the second form goes too, so both read "muller". Applied to query and company alike, so "Blue" -> "blu" is harmless.
 */
function transliterated(token: string): string {
  return token.length > 2 ? token.replace(/([aou])e/g, '$1') : token;
}

export function companyTokens(name: string): string[] {
  const tokens = foldedTokens(name).map(transliterated);
  const meaningful = tokens.filter((t) => !LEGAL_WORDS.has(t));
  return meaningful.length > 0 ? meaningful : tokens;
}

/** One key per company as a reader of sheets sees it: no legal form, case, accents, umlaut spelling or spaces. */
export function companyKey(name: string): string {
  return companyTokens(name).join('');
}

/** Companies similar to a name typed in a sheet: "acme", "ACME Inc.", "Acme Sytems" all find "Acme Systems GmbH". */
export class CompanyMatcher {
  private readonly vocabulary = new FuzzyVocabulary();
  private readonly postings: number[][] = [];
  private readonly tokenCounts: number[] = [];
  /** "blueharbor" for "Blue Harbor Labs" and "BlueHarbor", so spacing differences still agree. */
  private readonly compact = new Map<string, number[]>();
  private readonly cache = new Map<string, ReadonlyMap<number, number>>();

  constructor(names: readonly string[]) {
    names.forEach((name, index) => {
      const tokens = companyTokens(name);
      this.tokenCounts.push(tokens.length);
      for (const token of new Set(tokens)) {
        const id = this.vocabulary.intern(token);
        (this.postings[id] ??= []).push(index);
      }
      const key = tokens.join('');
      const list = this.compact.get(key);
      if (list) list.push(index);
      else this.compact.set(key, [index]);
    });
  }

  /** Company index -> similarity (0..1) for every company at least `MIN_COMPANY_SIMILARITY` alike. */
  similarities(query: string): ReadonlyMap<number, number> {
    const cached = this.cache.get(query);
    if (cached) return cached;
    const tokens = [...new Set(companyTokens(query))];
    const weights = new Map<number, number>();
    for (const token of tokens) {
      const best = new Map<number, number>();
      for (const match of this.vocabulary.lookup(token)) {
        for (const company of this.postings[match.id] ?? []) {
          if ((best.get(company) ?? 0) < match.similarity) best.set(company, match.similarity);
        }
      }
      for (const [company, s] of best) weights.set(company, (weights.get(company) ?? 0) + s);
    }
    const result = new Map<number, number>();
    for (const [company, weight] of weights) {
      const score = coverageScore(weight, tokens.length, this.tokenCounts[company]);
      if (score >= MIN_COMPANY_SIMILARITY) result.set(company, score);
    }
    for (const company of this.compact.get(tokens.join('')) ?? []) {
      result.set(company, Math.max(result.get(company) ?? 0, tokens.length === this.tokenCounts[company] ? 1 : 0.95));
    }
    if (this.cache.size > 20_000) this.cache.clear();
    this.cache.set(query, result);
    return result;
  }
}

export const MIN_COMPANY_SIMILARITY = 0.6;

export function roundScore(score: number): number {
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}
