// find: validation, the indexes that answer it without scanning people, ranking, and the reply shapes.
import type { Company, Dataset, Person } from './dataset';
import { publicPerson } from './dataset';
import { NICKNAMES, SPELLING_VARIANTS } from './name-variants';
import { PersonJsonBytes, ReplyWriter } from './reply-bytes';
import { CompanyMatcher, FuzzyVocabulary, INITIAL_SIMILARITY, TYPO_SIMILARITY, coverageScore, foldedTokens, roundScore, tokenSetScore, type TokenMatch } from './scoring';

/** `linkedin` is the third-party name for `social`. */
export const FIND_FIELDS = ['email_address', 'social', 'linkedin', 'name', 'company.name'] as const;
export const MAX_QUERIES_PER_FIND = 100;
export const MAX_PEOPLE_PER_QUERY = 5;

/** Where the persons of each find item go: real replies put them under several keys. */
/**
 * Reply shapes clients of the real service have seen: a bare array of lists; items with
 * `people` and `found`; items with `results`; `{matches: [...]}`; and the same wrapped under `data`, as a list
 * (`data`) or as `{data: {matches: [{results}]}}` (`data-matches`).
 */
export const FIND_SHAPES = ['array', 'people', 'results', 'matches', 'data', 'data-matches'] as const;
export type FindShape = (typeof FIND_SHAPES)[number];

export interface FindTerm {
  field_name: string;
  search_term: string;
}

export interface FindHit {
  /** Index into dataset.people. */
  person: number;
  score: number;
}

/** A find or search body the service would refuse with 400. */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseFindRequest(body: unknown): FindTerm[][] {
  if (!isRecord(body)) throw new InvalidRequestError('The request body must be a JSON object with a "matches" array.');
  const { matches } = body;
  if (!Array.isArray(matches)) throw new InvalidRequestError('"matches" must be an array of 1 to 100 queries.');
  if (matches.length === 0) throw new InvalidRequestError('"matches" is empty: send 1 to 100 queries.');
  if (matches.length > MAX_QUERIES_PER_FIND) {
    throw new InvalidRequestError(`"matches" holds ${matches.length} queries; the limit is ${MAX_QUERIES_PER_FIND} per call.`);
  }
  return matches.map((query, q) => {
    const fields = isRecord(query) ? query.fields : undefined;
    if (!Array.isArray(fields) || fields.length === 0) {
      throw new InvalidRequestError(`matches[${q}].fields must be a non-empty array of {field_name, search_term} terms.`);
    }
    return fields.map((term, t) => {
      const where = `matches[${q}].fields[${t}]`;
      if (!isRecord(term)) throw new InvalidRequestError(`${where} must be an object with field_name and search_term.`);
      const { field_name: field, search_term: value } = term;
      if (typeof field !== 'string') throw new InvalidRequestError(`${where}.field_name is missing or not a string.`);
      if (!(FIND_FIELDS as readonly string[]).includes(field)) {
        throw new InvalidRequestError(`${where}.field_name "${field}" is not searchable; use one of ${FIND_FIELDS.join(', ')}.`);
      }
      if (typeof value !== 'string') throw new InvalidRequestError(`${where}.search_term is missing or not a string.`);
      if (value.trim() === '') throw new InvalidRequestError(`${where}.search_term is empty.`);
      return { field_name: field, search_term: value };
    });
  });
}

/** The slug as stored: a pasted percent-encoded slug and its decoded form agree; case never matters. */
export function normalizeSlug(slug: string): string {
  let text = slug.trim();
  if (text.includes('%')) {
    try {
      text = decodeURIComponent(text);
    } catch {
      // Not valid percent-encoding: keep it as typed, it will simply match nobody.
    }
  }
  return text.normalize('NFC').toLowerCase();
}

/** Keeps the best `size` hits, ordered by score, then by dataset order so ties are stable. */
class BestHits {
  readonly hits: FindHit[] = [];
  constructor(private readonly size: number) {}

  offer(person: number, score: number): void {
    const hits = this.hits;
    if (hits.length === this.size) {
      const last = hits[hits.length - 1];
      if (score < last.score || (score === last.score && person > last.person)) return;
    }
    let at = hits.length;
    while (at > 0 && (hits[at - 1].score < score || (hits[at - 1].score === score && hits[at - 1].person > person))) at--;
    hits.splice(at, 0, { person, score });
    if (hits.length > this.size) hits.pop();
  }
}

/** A name match must reach this (0..1) to be returned at all. */
const MIN_NAME_SCORE = 0.5;
/** A name query caps its tokens; nobody's name has more. */
const MAX_NAME_TOKENS = 12;
/** Past jobs count a little less than the current one when a company is given. */
const PAST_JOB_WEIGHT = 0.9;
/** "Bob" for Robert: the same person as likely as a one-letter typo, a little less than the name itself. */
const NICKNAME_SIMILARITY = 0.8;
/** "Stephen" for Steven: as near as a typo, though no single letter apart. */
const SPELLING_SIMILARITY = TYPO_SIMILARITY;

/**
 * Everything find needs, built once per dataset: e-mail and slug maps, an inverted index of folded name tokens
 * with a typo neighbourhood, and each person's employers as flat arrays. A query touches only the postings of
 * its own tokens, never every person.
 */
export class PeopleIndex {
  readonly people: readonly Person[];
  readonly companyMatcher: CompanyMatcher;
  private readonly companies: readonly Company[];
  private readonly companyIndex = new Map<Company, number>();
  private readonly byEmail = new Map<string, number>();
  private readonly bySlug = new Map<string, number>();
  private readonly names = new FuzzyVocabulary();
  private readonly variantMatches = new Map<string, TokenMatch[]>();
  private readonly namePostings: Int32Array[];
  private readonly nameTokenStart: Uint32Array;
  private readonly nameTokenIds: Int32Array;
  private readonly jobStart: Uint32Array;
  private readonly jobCompany: Int32Array;
  private readonly jobCurrent: Uint8Array;
  private readonly companyPeople: Int32Array[];
  /** Each person's reply JSON as UTF-8, made once: replies are built by copying these bytes. */
  readonly personBytes: PersonJsonBytes;
  /**
   * Scratch space for one query at a time (the server answers queries one after another): per person, the last stamp
   * they were given, a query's once it has seen them or a company's while they hold or held one of the query's
   * companies. Stamps only grow, so an old one never passes for a new one.
   */
  private readonly queryStamp: Int32Array;
  private stamp = 0;

  constructor(dataset: Dataset) {
    const people = (this.people = dataset.people);
    const n = people.length;
    this.companies = dataset.companies;
    dataset.companies.forEach((company, i) => this.companyIndex.set(company, i));
    this.companyMatcher = new CompanyMatcher(dataset.companies.map((c) => c.name));

    const tokenIds: number[] = [];
    this.nameTokenStart = new Uint32Array(n + 1);
    let jobs = 0;
    for (const person of people) jobs += person.jobs.length;
    this.jobStart = new Uint32Array(n + 1);
    this.jobCompany = new Int32Array(jobs);
    this.jobCurrent = new Uint8Array(jobs);
    const companyCounts = new Uint32Array(dataset.companies.length);
    // First and last names come from small pools: folding them, not 200,000 full names, keeps the build fast.
    const foldCache = new Map<string, string[]>();
    const tokensOf = (text: string) => {
      let tokens = foldCache.get(text);
      if (!tokens) foldCache.set(text, (tokens = foldedTokens(text)));
      return tokens;
    };
    let job = 0;
    for (let i = 0; i < n; i++) {
      const person = people[i];
      this.byEmail.set(person.email_address.toLowerCase(), i);
      this.bySlug.set(normalizeSlug(person.linkedin), i);
      const start = (this.nameTokenStart[i] = tokenIds.length);
      const tokens = person.name === `${person.first_name} ${person.last_name}`
        ? [...tokensOf(person.first_name), ...tokensOf(person.last_name)]
        : foldedTokens(person.name);
      for (const token of tokens) {
        const id = this.names.intern(token);
        if (!tokenIds.includes(id, start)) tokenIds.push(id);
      }
      this.jobStart[i] = job;
      for (const entry of person.jobs) {
        const c = this.companyIndex.get(entry.company) ?? -1;
        this.jobCompany[job] = c;
        this.jobCurrent[job] = entry.ended_at === null ? 1 : 0;
        if (c >= 0 && !this.hasEarlierJobAt(i, job, c)) companyCounts[c]++;
        job++;
      }
    }
    this.nameTokenStart[n] = tokenIds.length;
    this.jobStart[n] = job;
    this.nameTokenIds = Int32Array.from(tokenIds);

    // Postings in two passes (count, then fill) into typed arrays: no growing arrays, little garbage.
    const tokenCounts = new Uint32Array(this.names.tokens.length);
    for (const id of this.nameTokenIds) tokenCounts[id]++;
    const fill = new Uint32Array(this.names.tokens.length);
    this.namePostings = Array.from(tokenCounts, (count) => new Int32Array(count));
    for (let i = 0; i < n; i++) {
      for (let k = this.nameTokenStart[i]; k < this.nameTokenStart[i + 1]; k++) {
        const id = this.nameTokenIds[k];
        this.namePostings[id][fill[id]++] = i;
      }
    }
    const companyFill = new Uint32Array(dataset.companies.length);
    this.companyPeople = Array.from(companyCounts, (count) => new Int32Array(count));
    for (let i = 0; i < n; i++) {
      for (let k = this.jobStart[i]; k < this.jobStart[i + 1]; k++) {
        const c = this.jobCompany[k];
        if (c >= 0 && !this.hasEarlierJobAt(i, k, c)) this.companyPeople[c][companyFill[c]++] = i;
      }
    }
    this.personBytes = new PersonJsonBytes(n, (person) => JSON.stringify(publicPerson(people[person]!)));
    this.queryStamp = new Int32Array(n);
  }

  /** Whether the person's jobs before `job` include one at `company` (people list each employer once). */
  private hasEarlierJobAt(person: number, job: number, company: number): boolean {
    for (let k = this.jobStart[person]; k < job; k++) if (this.jobCompany[k] === company) return true;
    return false;
  }

  companyName(company: number): string {
    return this.companies[company].name;
  }

  /** The person's reply JSON (decoded from personBytes). */
  personJson(person: number): string {
    return this.personBytes.text(person);
  }

  /** The best people for one query, at most MAX_PEOPLE_PER_QUERY, best first, scores 0..1. */
  find(terms: readonly FindTerm[]): FindHit[] {
    const emails: string[] = [];
    const slugs: string[] = [];
    const nameTokens = new Set<string>();
    const companies: string[] = [];
    for (const term of terms) {
      switch (term.field_name) {
        case 'email_address': emails.push(term.search_term.trim().toLowerCase()); break;
        case 'social':
        case 'linkedin': slugs.push(normalizeSlug(term.search_term)); break;
        case 'name': for (const token of foldedTokens(term.search_term)) nameTokens.add(token); break;
        case 'company.name': companies.push(term.search_term); break;
      }
    }
    const queryNames = [...nameTokens].slice(0, MAX_NAME_TOKENS);
    const companySimilarity = this.companySimilarities(companies);
    const best = new BestHits(MAX_PEOPLE_PER_QUERY);

    const identified = new Set<number>();
    for (const email of emails) {
      const hit = this.byEmail.get(email);
      if (hit !== undefined) identified.add(hit);
    }
    for (const slug of slugs) {
      const hit = this.bySlug.get(slug);
      if (hit !== undefined) identified.add(hit);
    }
    for (const person of identified) {
      // An exact identifier is near-certain; other terms that disagree only lower it a little.
      const agreements: number[] = [];
      if (queryNames.length > 0) agreements.push(tokenSetScore(queryNames, this.nameTokensOf(person)).score);
      if (companySimilarity) agreements.push(this.companyAgreement(person, companySimilarity));
      const agreement = agreements.length === 0 ? 1 : agreements.reduce((a, b) => a + b, 0) / agreements.length;
      best.offer(person, 0.9 + 0.1 * agreement);
    }

    // Someone found by name whose e-mail or slug was asked for but differs is a weaker candidate.
    const identifierPenalty = emails.length + slugs.length > 0 ? 0.8 : 1;
    if (queryNames.length > 0) {
      // Name + company asks only for people who hold or held that company: only they are scored by name.
      const company = companySimilarity ? this.markCompanyPeople(companySimilarity) : 0;
      this.findByName(queryNames, company, (person, nameScore) => {
        if (identified.has(person)) return;
        if (!companySimilarity) return best.offer(person, nameScore * identifierPenalty);
        // Name + company asks for people who hold or held that company: namesakes elsewhere are not answers.
        const company = this.companyAgreement(person, companySimilarity);
        if (company > 0) best.offer(person, (0.75 * nameScore + 0.25 * company) * identifierPenalty);
      });
    } else if (companySimilarity && emails.length + slugs.length === 0) {
      // A company alone says little about which person is meant: low scores, current staff first.
      const stamp = ++this.stamp;
      for (const company of companySimilarity.keys()) {
        for (const person of this.companyPeople[company]) {
          if (this.queryStamp[person] === stamp) continue;
          this.queryStamp[person] = stamp;
          best.offer(person, 0.5 * this.companyAgreement(person, companySimilarity));
        }
      }
    }
    return best.hits.map((hit) => ({ person: hit.person, score: roundScore(hit.score) }));
  }

  private companySimilarities(queries: readonly string[]): ReadonlyMap<number, number> | null {
    if (queries.length === 0) return null;
    if (queries.length === 1) return this.companyMatcher.similarities(queries[0]);
    const merged = new Map<number, number>();
    for (const query of queries) {
      for (const [company, s] of this.companyMatcher.similarities(query)) merged.set(company, Math.max(s, merged.get(company) ?? 0));
    }
    return merged;
  }

  private companyAgreement(person: number, similarity: ReadonlyMap<number, number>): number {
    let best = 0;
    for (let job = this.jobStart[person]; job < this.jobStart[person + 1]; job++) {
      const s = (similarity.get(this.jobCompany[job]) ?? 0) * (this.jobCurrent[job] ? 1 : PAST_JOB_WEIGHT);
      if (s > best) best = s;
    }
    return best;
  }

  private nameTokensOf(person: number): string[] {
    const tokens: string[] = [];
    for (let k = this.nameTokenStart[person]; k < this.nameTokenStart[person + 1]; k++) tokens.push(this.names.tokens[this.nameTokenIds[k]]);
    return tokens;
  }

  /**
   * Name tokens equal to, one typo from, a spelling variant of ("stephen" for "steven") or a nickname of the query
   * token ("bob" finds "robert"), best first.
   */
  private tokenMatches(token: string): readonly TokenMatch[] {
    const fuzzy = this.names.lookup(token);
    const nicknames = NICKNAMES.get(token);
    const spellings = SPELLING_VARIANTS.get(token);
    if (!nicknames && !spellings) return fuzzy;
    let matches = this.variantMatches.get(token);
    if (!matches) {
      const found = [...fuzzy];
      const add = (names: readonly string[] | undefined, similarity: number) => {
        for (const name of names ?? []) {
          const id = this.names.idOf(name);
          if (id !== undefined && !found.some((m) => m.id === id)) found.push({ id, similarity });
        }
      };
      add(spellings, SPELLING_SIMILARITY);
      add(nicknames, NICKNAME_SIMILARITY);
      this.variantMatches.set(token, (matches = found));
    }
    return matches;
  }

  /**
   * Calls `visit` for every person whose name covers the query tokens well enough. Each query word adds its
   * best similarity to the people in the postings of the tokens it matches (exact, one typo away, a spelling
   * variant or a nickname). Initials ("J. Smith") find nobody by themselves; they must agree with a word of each
   * candidate's name.
   *
   * With two words or more a person must match two of them, so they are among the postings of any all-but-one of
   * the words: only the cheapest such words' postings are walked, and each person found there is checked against
   * every word through their own few name tokens (a common first name's thousands of postings are never read).
   * `company`: a stamp from markCompanyPeople when the query names a company (only the people it marks are
   * scored: the others would not be answers), 0 when it names none.
   */
  private findByName(queryTokens: readonly string[], company: number, visit: (person: number, score: number) => void): void {
    const { queryStamp } = this;
    const words = queryTokens.filter((t) => t.length > 1);
    const initials = queryTokens.filter((t) => t.length === 1);
    if (words.length === 0) return;
    const needed = Math.min(2, words.length);
    const matches = words.map((token) => this.tokenMatches(token));
    // Per word, the ids of the tokens it matches, best first (a person's best is the first of their tokens listed).
    const ids = matches.map((list) => list.map((match) => match.id));
    const postingsOf = (w: number) => matches[w]!.reduce((sum, match) => sum + this.namePostings[match.id]!.length, 0);
    const seeds = words
      .map((_, w) => ({ w, cost: postingsOf(w) }))
      .sort((a, b) => a.cost - b.cost)
      .slice(0, words.length - needed + 1);
    const query = ++this.stamp;
    for (const { w } of seeds) {
      for (const match of matches[w]!) {
        const list = this.namePostings[match.id]!;
        for (let k = 0; k < list.length; k++) {
          const person = list[k]!;
          // With a company, only people still marked by it are new and held it: one look at the stamps either way.
          if (company !== 0 ? queryStamp[person] !== company : queryStamp[person] === query) continue;
          queryStamp[person] = query;
          this.offerByName(person, matches, ids, needed, initials, queryTokens.length, visit);
        }
      }
    }
  }

  /** Stamps everyone who holds or held one of the companies (each a stamp of its own); returns the stamp. */
  private markCompanyPeople(similarity: ReadonlyMap<number, number>): number {
    const stamp = ++this.stamp;
    for (const company of similarity.keys()) {
      const people = this.companyPeople[company]!;
      for (let k = 0; k < people.length; k++) this.queryStamp[people[k]!] = stamp;
    }
    return stamp;
  }

  /** One person against every query word, in query order (a float32 sum, as the scores were always made). */
  private offerByName(
    person: number,
    matches: readonly (readonly TokenMatch[])[],
    ids: readonly (readonly number[])[],
    needed: number,
    initials: readonly string[],
    queryTokenCount: number,
    visit: (person: number, score: number) => void,
  ): void {
    const from = this.nameTokenStart[person]!;
    const to = this.nameTokenStart[person + 1]!;
    let total = 0;
    let matched = 0;
    for (let w = 0; w < ids.length; w++) {
      const wordIds = ids[w]!;
      let best = -1;
      for (let k = from; k < to; k++) {
        const id = this.nameTokenIds[k]!;
        const end = best < 0 ? wordIds.length : best;
        for (let place = 0; place < end; place++) {
          if (wordIds[place] === id) {
            best = place;
            break;
          }
        }
      }
      if (best < 0) continue;
      total = Math.fround(total + matches[w]![best]!.similarity);
      matched++;
    }
    if (matched < needed) return;
    if (initials.length > 0) {
      const own = this.nameTokensOf(person);
      if (!initials.every((initial) => own.some((t) => t.startsWith(initial)))) return;
      total += initials.length * INITIAL_SIMILARITY;
    }
    const score = coverageScore(total, queryTokenCount, to - from);
    if (score >= MIN_NAME_SCORE) visit(person, score);
  }
}

/** Room a reply needs around its people's JSON: a score and a comma a person, an item's wrapping a query. */
const SCORE_BYTES = 32;
const ITEM_BYTES = 48;

function writePeople(out: ReplyWriter, index: PeopleIndex, hits: readonly FindHit[], withScores: boolean): void {
  out.ascii('[');
  for (let i = 0; i < hits.length; i++) {
    if (i > 0) out.ascii(',');
    if (withScores) {
      out.ascii(`{"score":${hits[i]!.score},`);
      out.person(index.personBytes, hits[i]!.person, 1);
    } else {
      out.person(index.personBytes, hits[i]!.person);
    }
  }
  out.ascii(']');
}

/** The whole find reply as UTF-8 JSON, one item per query in query order, in the chosen shape. */
export function renderFindReplyBytes(index: PeopleIndex, results: readonly FindHit[][], shape: FindShape, withScores: boolean): Buffer {
  let size = ITEM_BYTES;
  for (const hits of results) {
    size += ITEM_BYTES;
    for (const hit of hits) size += index.personBytes.byteLength(hit.person) + SCORE_BYTES;
  }
  const out = new ReplyWriter(size);
  if (shape === 'matches') out.ascii('{"matches":');
  else if (shape === 'data') out.ascii('{"data":');
  else if (shape === 'data-matches') out.ascii('{"data":{"matches":');
  out.ascii('[');
  for (let q = 0; q < results.length; q++) {
    if (q > 0) out.ascii(',');
    const hits = results[q]!;
    switch (shape) {
      case 'array':
      case 'data':
        writePeople(out, index, hits, withScores);
        break;
      case 'people':
        out.ascii(`{"found":${hits.length > 0},"people":`);
        writePeople(out, index, hits, withScores);
        out.ascii('}');
        break;
      case 'results':
      case 'data-matches':
        out.ascii('{"results":');
        writePeople(out, index, hits, withScores);
        out.ascii('}');
        break;
      case 'matches':
        out.ascii('{"people":');
        writePeople(out, index, hits, withScores);
        out.ascii('}');
        break;
    }
  }
  out.ascii(']');
  if (shape === 'matches' || shape === 'data') out.ascii('}');
  else if (shape === 'data-matches') out.ascii('}}');
  return out.finish();
}

/** The find reply as JSON text (renderFindReplyBytes decoded). */
export function renderFindReply(index: PeopleIndex, results: readonly FindHit[][], shape: FindShape, withScores: boolean): string {
  return renderFindReplyBytes(index, results, shape, withScores).toString('utf8');
}

/** The key counters use for "the same query": its terms sorted, as JSON. */
export function queryKey(terms: readonly FindTerm[]): string {
  const sorted = terms
    .map((t) => ({ field_name: t.field_name, search_term: t.search_term }))
    .sort((a, b) => (a.field_name < b.field_name ? -1 : a.field_name > b.field_name ? 1 : a.search_term < b.search_term ? -1 : a.search_term > b.search_term ? 1 : 0));
  return JSON.stringify(sorted);
}
