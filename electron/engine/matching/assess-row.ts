// Applies the confidence model (confidence-model.ts) to one row and the candidates the service returned for it:
// each candidate's evidence per field, its confidence, the row's best candidate with a reason in words, and the
// guard that keeps the row from being accepted alone, if any. Pure and cheap: run for every row of a sheet.
import type { EvidenceItem, EvidenceMark, Strategy } from '../../../shared/model';
import type { CandidateFacts, JobFact } from './candidate-facts';
import { atCompany, domainOwnedBy, emailDomain, type EmailDomain } from './company-names';
import { calibrated, type RowKind } from './calibrate';
import { CONFIDENCE_MODEL, WEIGHTS, type Comparison, type LevelOf } from './confidence-model';
import { compareName, comparedName, nameParts, type ComparedName, type NameLevel, type NameParts } from './name-comparison';
import { comparable } from './normalize';
import type { RowInput } from './queries';

/** A row's inputs, prepared once for comparing with every candidate. */
export interface RowFacts {
  name: NameParts | null;
  /** The name's forms the comparison reads (compareName). */
  comparedName: ComparedName | null;
  nameText: string | null;
  company: string | null;
  email: string | null;
  /** The e-mail's mailbox (mailbox below), to compare with the record's e-mails. */
  mailbox: string | null;
  /** The e-mail's domain when it is a work address (not a webmail provider). */
  workDomain: string | null;
  /** The work domain as compared with each job's company. */
  workEmailDomain: EmailDomain | null;
  slug: string | null;
  location: string | null;
  /** The location as compared with each candidate's (locationLevel); null when there is none. */
  place: SheetPlace | null;
}

/** The sheet's location folded (comparable), in the forms locationLevel compares. */
interface SheetPlace {
  /** The folded text between spaces, to find a whole word or words in it. */
  spaced: string;
  /** Its first two words. */
  firstWords: string;
  /** The country it names (COUNTRY_NAMES), else the text itself. */
  country: string;
}

// Personal mailboxes: their domain says nothing about an employer.
const WEBMAIL = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'hotmail.fr', 'hotmail.co.uk', 'live.com', 'msn.com',
  'yahoo.com', 'yahoo.fr', 'yahoo.co.uk', 'ymail.com', 'aol.com', 'icloud.com', 'me.com', 'mac.com', 'proton.me',
  'protonmail.com', 'gmx.de', 'gmx.net', 'gmx.com', 'web.de', 't-online.de', 'yandex.ru', 'mail.ru', 'qq.com',
  '163.com', '126.com', 'orange.fr', 'free.fr', 'laposte.net', 'libero.it', 'fastmail.com', 'zoho.com', 'hey.com',
]);

export function rowFacts(input: RowInput): RowFacts {
  const email = input.email?.ok ? input.email.email : null;
  const domain = email ? email.slice(email.lastIndexOf('@') + 1) : null;
  const workDomain = domain && !WEBMAIL.has(domain) ? domain : null;
  const name = nameParts(input.name);
  const location = input.location ?? null;
  return {
    name,
    comparedName: name ? comparedName(name) : null,
    nameText: input.name,
    company: input.company,
    email,
    mailbox: email ? mailbox(email) : null,
    workDomain,
    workEmailDomain: workDomain ? emailDomain(workDomain) : null,
    slug: input.profile?.ok ? input.profile.slug : null,
    location,
    place: location ? sheetPlace(location) : null,
  };
}

export type Levels = { [C in Comparison]: LevelOf<C> };

export interface CandidateAssessment {
  /** The service's rank (1 = its first), which is how a candidate is named in decisions. */
  rank: number;
  /** The probability that this candidate is the row's person: its share, calibrated for the row's kind. */
  confidence: number;
  /** Its share of the evidence among the candidates and "none of them" (evidenceShares): the raw score. */
  share: number;
  /** The sum of the evidence weights, in bits. */
  weight: number;
  evidence: EvidenceItem[];
  /** Why this candidate, in a few words: "same name, works at Globex now". */
  reason: string;
  levels: Levels;
  /** The job at the sheet's company, when the record has one. */
  companyJob: JobFact | null;
}

export interface RowAssessment {
  /** Best first: by confidence, then by the service's rank. */
  candidates: CandidateAssessment[];
  confidence: number;
  /** The confidence of the second-best candidate (0 when there is none). */
  runnerUp: number;
  /** Clear, or the guard that stops the row; which calibration map its confidences come from. */
  kind: RowKind | null;
  /** Why the row may not be accepted without a person looking, whatever its confidence; null when it may. */
  guard: string | null;
  /** The best candidate's reason, with the guard or what sets it apart from the others. */
  reason: string;
}

const NO_CANDIDATES: RowAssessment = { candidates: [], confidence: 0, runnerUp: 0, kind: null, guard: 'no candidates', reason: 'The service found nobody for this row.' };

/**
 * `explain`: 'all' puts the evidence in words on every candidate (review, export); 'best' only on the one the row is
 * settled with (a run settles every row of a sheet, and the others' words would be thrown away).
 */
export function assessRow(row: RowFacts, candidates: readonly CandidateFacts[], strategy: Strategy | null, explain: 'all' | 'best' = 'all'): RowAssessment {
  if (candidates.length === 0) return NO_CANDIDATES;
  const judged = candidates.map((c) => judge(row, c, strategy));
  const shares = evidenceShares(judged.map((j) => j.weight));
  judged.forEach((j, i) => (j.share = shares[i]!));
  judged.sort((a, b) => b.share - a.share || a.rank - b.rank);

  const best = judged[0]!;
  for (const j of explain === 'all' ? judged : [best]) explainJudged(row, candidates.find((c) => c.rank === j.rank)!, j);
  // A guard keeps the row from being accepted alone; the confidence stays what rows of its kind turn out to be.
  const guard = guardOf(row, judged);
  const kind = guard?.kind ?? 'clear';
  for (const j of judged) j.confidence = calibrated(CONFIDENCE_MODEL.calibration, kind, j.share);
  return {
    candidates: judged,
    confidence: best.confidence,
    runnerUp: judged[1]?.confidence ?? 0,
    kind,
    guard: guard?.text ?? null,
    reason: guard ? `${best.reason}; ${guard.text}` : withDistinction(best, judged),
  };
}

/**
 * Each candidate's share of the evidence, beside the chance that the person is none of them (confidence-model.ts):
 * the model's raw score, which calibration turns into a probability. `weights` in bits, one per candidate.
 */
export function evidenceShares(weights: readonly number[]): number[] {
  const prior = CONFIDENCE_MODEL.notAmongCandidates.probability;
  const none = Math.log2(prior / ((1 - prior) / weights.length));
  const top = Math.max(none, ...weights);
  const total = 2 ** (none - top) + weights.reduce((sum, w) => sum + 2 ** (w - top), 0);
  return weights.map((w) => 2 ** (w - top) / total);
}

/** Each field's level of agreement for one candidate, and the weight they add up to. */
function judge(row: RowFacts, c: CandidateFacts, strategy: Strategy | null): CandidateAssessment {
  const name = row.comparedName && c.nameParts ? compareName(row.comparedName, c.nameParts) : 'missing';
  const company = companyLevel(row.company, c.jobs);
  const levels: Levels = {
    name,
    company: company.level,
    email: emailLevel(row, c, strategy),
    profile: profileLevel(row, c, strategy),
    emailDomain: domainLevel(row.workEmailDomain, c.jobs),
    location: locationLevel(row.place, c),
  };
  let weight = 0;
  for (const field of COMPARISONS) weight += ROUNDED_WEIGHTS[field][levels[field] as string] ?? 0;
  return { rank: c.rank, confidence: 0, share: 0, weight, evidence: [], reason: '', levels, companyJob: company.job };
}

/** The evidence of a judged candidate in words, and its reason. */
function explainJudged(row: RowFacts, c: CandidateFacts, judged: CandidateAssessment): void {
  judged.evidence = evidenceItems(row, c, judged.levels, judged.companyJob);
  judged.reason = reasonOf(judged.evidence);
}

const COMPARISONS = Object.keys(WEIGHTS) as Comparison[];
/** The weights as the evidence shows them (two decimals), so a candidate's weight is the sum of what it shows. */
const ROUNDED_WEIGHTS = Object.fromEntries(
  COMPARISONS.map((c) => [c, Object.fromEntries(Object.entries(WEIGHTS[c] as Record<string, number>).map(([level, w]) => [level, round(w)]))]),
) as Record<Comparison, Record<string, number>>;

// ----- levels per field ---------------------------------------------------------------------------------------

/** The best agreement between the sheet's company and any of the jobs (atCompany), current jobs first at equal agreement. */
export function companyLevel(company: string | null, jobs: readonly JobFact[]): { level: LevelOf<'company'>; job: JobFact | null } {
  if (!company || jobs.length === 0) return { level: 'missing', job: null };
  const { match, items } = atCompany(company, jobs, (j) => j.company);
  if (match === 'differs') return { level: jobs.some((j) => j.company) ? 'differs' : 'missing', job: null };
  const current = items.find((j) => j.status === 'current');
  if (current) return { level: match === 'same' ? 'current_same' : 'current_close', job: current };
  return { level: match === 'same' ? 'past_same' : 'past_close', job: items[0]! };
}

function emailLevel(row: RowFacts, c: CandidateFacts, strategy: Strategy | null): LevelOf<'email'> {
  if (!row.email) return 'missing';
  if (c.emails.includes(row.email)) return 'record_same';
  if (strategy === 'email') return 'found_by';
  if (c.emails.length === 0) return 'missing';
  return c.emails.some((e) => mailbox(e) === row.mailbox) ? 'record_close' : 'record_differs';
}

/** One mailbox written two ways: "+tag" suffixes, and dots in Gmail addresses. */
function mailbox(email: string): string {
  const at = email.lastIndexOf('@');
  let local = email.slice(0, at).replace(/\+.*$/u, '');
  let domain = email.slice(at + 1);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

function profileLevel(row: RowFacts, c: CandidateFacts, strategy: Strategy | null): LevelOf<'profile'> {
  if (!row.slug) return 'missing';
  if (c.slug) return c.slug.normalize('NFC') === row.slug ? 'same' : 'differs';
  // Found by the profile link, on a record that does not repeat its slug: the service matched it.
  return strategy === 'social' ? 'same' : 'missing';
}

function domainLevel(domain: EmailDomain | null, jobs: readonly JobFact[]): LevelOf<'emailDomain'> {
  if (!domain || jobs.length === 0) return 'missing';
  // A current job's company wins over a past one's, wherever each is in the list.
  let past = false;
  for (const j of jobs) {
    if (j.status === 'current') {
      if (domainOwnedBy(domain, j.company, j.domain)) return 'current_company';
    } else if (!past && domainOwnedBy(domain, j.company, j.domain)) past = true;
  }
  return past ? 'past_company' : 'other_company';
}

// A Map, not an object: a sheet's cell is the key, and "constructor" must not find Object's own.
const COUNTRY_NAMES = new Map<string, string>(Object.entries({
  us: 'united states', usa: 'united states', 'united states of america': 'united states', america: 'united states',
  uk: 'united kingdom', gb: 'united kingdom', 'great britain': 'united kingdom', england: 'united kingdom',
  deutschland: 'germany', de: 'germany', france: 'france', fr: 'france', espana: 'spain', es: 'spain', nl: 'netherlands',
  holland: 'netherlands', schweiz: 'switzerland', suisse: 'switzerland', ch: 'switzerland', osterreich: 'austria',
}));

function sheetPlace(location: string): SheetPlace {
  const folded = comparable(location);
  const words = folded.split(' ');
  return {
    spaced: ` ${folded} `,
    firstWords: words.slice(0, 2).join(' '),
    country: COUNTRY_NAMES.get(folded) ?? COUNTRY_NAMES.get(words[words.length - 1]!) ?? folded,
  };
}

function locationLevel(sheet: SheetPlace | null, c: CandidateFacts): LevelOf<'location'> {
  if (!sheet || !c.location) return 'missing';
  const parts = c.location.split(',').map((p) => comparable(p)).filter(Boolean);
  const city = parts[0];
  if (city && (sheet.spaced.includes(` ${city} `) || sheet.firstWords === city)) return 'same_city';
  const country = comparable(c.country ?? parts[parts.length - 1] ?? '');
  if (country && (sheet.spaced.includes(` ${country} `) || sheet.country === country || sheet.country.endsWith(country))) return 'same_country';
  return 'differs';
}

// ----- evidence in words --------------------------------------------------------------------------------------

const MARKS: Record<string, EvidenceMark> = {
  exact: 'same', first_last: 'close', nickname: 'close', typo: 'close', initial: 'close', last_only: 'differs', first_only: 'differs',
  current_same: 'same', past_same: 'same', current_close: 'close', past_close: 'close',
  found_by: 'same', record_same: 'same', record_close: 'close', record_differs: 'differs',
  same: 'same', current_company: 'same', past_company: 'close', other_company: 'differs',
  same_city: 'same', same_country: 'close', differs: 'differs', missing: 'missing',
};

function evidenceItems(row: RowFacts, c: CandidateFacts, levels: Levels, companyJob: JobFact | null): EvidenceItem[] {
  const items: EvidenceItem[] = [];
  addEvidence(items, levels, 'email', emailNote(levels.email));
  addEvidence(items, levels, 'profile', levels.profile === 'same' ? 'same profile' : levels.profile === 'differs' ? `another profile (${c.slug})` : null);
  addEvidence(items, levels, 'name', nameNote(levels.name, row, c));
  addEvidence(items, levels, 'company', companyNote(levels.company, row.company, companyJob, c.jobs));
  addEvidence(items, levels, 'emailDomain', levels.emailDomain === 'current_company' ? 'e-mail domain is the current employer\'s' : levels.emailDomain === 'past_company' ? 'e-mail domain is a past employer\'s' : levels.emailDomain === 'other_company' ? 'e-mail domain is not an employer on record' : null);
  addEvidence(items, levels, 'location', levels.location === 'same_city' ? 'same city' : levels.location === 'same_country' ? 'same country' : levels.location === 'differs' ? `lives elsewhere (${c.location})` : null);
  return items;
}

// A function of the module, not a closure made for every candidate explained.
function addEvidence(items: EvidenceItem[], levels: Levels, field: Comparison, note: string | null): void {
  const level = levels[field] as string;
  if (note === null) return;
  items.push({ field, level, mark: MARKS[level] ?? 'missing', weight: ROUNDED_WEIGHTS[field][level] ?? 0, note });
}

function emailNote(level: LevelOf<'email'>): string | null {
  switch (level) {
    case 'found_by':
      return 'found by this e-mail';
    case 'record_same':
      return 'same e-mail on the record';
    case 'record_close':
      return 'same mailbox written another way';
    case 'record_differs':
      return 'the record lists other e-mails';
    default:
      return null;
  }
}

function nameNote(level: NameLevel, row: RowFacts, c: CandidateFacts): string | null {
  const theirs = c.name ?? [c.firstName, c.lastName].filter(Boolean).join(' ');
  switch (level) {
    case 'exact':
      return 'same name';
    case 'first_last':
      return `same first and last name (${theirs})`;
    case 'nickname':
      return `nickname or variant of the name (${theirs})`;
    case 'typo':
      return `name nearly the same (${theirs})`;
    case 'initial':
      return `only an initial agrees (${theirs})`;
    case 'last_only':
      return `same last name, another first name (${theirs})`;
    case 'first_only':
      return `same first name, another last name (${theirs})`;
    case 'differs':
      return `another name (${theirs})`;
    default:
      return row.nameText ? 'the record has no name' : null;
  }
}

function companyNote(level: LevelOf<'company'>, company: string | null, job: JobFact | null, jobs: readonly JobFact[]): string | null {
  const at = job?.company ?? company ?? '';
  const current = jobs.find((j) => j.status === 'current' && j.company);
  switch (level) {
    case 'current_same':
      return `works at ${at} now`;
    case 'past_same':
      return `worked at ${at}${job?.ended ? ` until ${job.ended}` : ''}${current ? ` (now at ${current.company})` : ''}`;
    case 'current_close':
      return `works at ${at} now (close to ${company})`;
    case 'past_close':
      return `worked at ${at} (close to ${company})`;
    case 'differs':
      return `no job at ${company} on record${current ? ` (works at ${current.company})` : ''}`;
    default:
      return company ? 'the record lists no jobs' : null;
  }
}

/** The strongest few pieces of evidence, for and against, in words. */
function reasonOf(evidence: EvidenceItem[]): string {
  const telling = evidence.filter((e) => Math.abs(e.weight) >= 1 || e.field === 'name' || e.field === 'company');
  return telling.map((e) => e.note).join(', ') || 'nothing to compare';
}

function round(weight: number): number {
  return Math.round(weight * 100) / 100;
}

// ----- guards ---------------------------------------------------------------------------------------------------

const NEAR_NAMES = new Set<NameLevel>(['first_last', 'nickname', 'typo', 'initial']);

function isHit(c: Pick<CandidateAssessment, 'levels'>): boolean {
  return c.levels.email === 'found_by' || c.levels.email === 'record_same' || c.levels.profile === 'same';
}

/**
 * Why the best candidate (the first of `all`) may not be accepted without a person looking (issue 10's rule), or
 * null: its kind and the words for it.
 * - an e-mail or profile hit is accepted only when it is the only hit and the names do not conflict (not both names
 *   differing, nor another first name with the same last name: a family mailbox);
 * - otherwise only the one candidate with the sheet's exact (accent-folded) name who holds or held the sheet's
 *   company: never a near name, never a name without a company, never one of two such namesakes.
 */
export function guardOf(row: Pick<RowFacts, 'nameText' | 'company'>, all: readonly Pick<CandidateAssessment, 'levels'>[]): { kind: Exclude<RowKind, 'clear'>; text: string } | null {
  const best = all[0]!;
  if (isHit(best)) {
    const hits = all.filter(isHit).length;
    const by = best.levels.profile === 'same' ? 'profile link' : 'e-mail';
    if (hits > 1) return { kind: 'several_hits', text: `the ${by} found ${hits} people` };
    if (best.levels.name === 'differs') return { kind: 'hit_other_name', text: `the ${by} belongs to someone whose first and last name both differ from the sheet's` };
    // Same family name, another first name: a shared family mailbox or a relative far more often than the same person.
    if (best.levels.name === 'last_only') return { kind: 'hit_family_name', text: `the ${by} belongs to someone with the sheet's last name but another first name` };
    return null;
  }
  if (!row.nameText) return { kind: 'no_name', text: 'no name, e-mail or profile in the sheet to be sure' };
  if (!row.company) return { kind: 'no_company', text: 'no company in the sheet to tell namesakes apart' };
  if (best.levels.name !== 'exact') {
    return NEAR_NAMES.has(best.levels.name)
      ? { kind: 'near_name', text: 'the name only nearly matches (a nickname, typo or initial)' }
      : { kind: 'no_such_name', text: 'no candidate has the sheet\'s name' };
  }
  if (best.levels.company !== 'current_same' && best.levels.company !== 'past_same') return { kind: 'not_at_company', text: notAtCompany(best.levels.company, row.company) };
  const twins = all.filter((c) => c.levels.name === 'exact' && (c.levels.company === 'current_same' || c.levels.company === 'past_same')).length;
  if (twins > 1) return { kind: 'twins', text: `${twins} candidates have this name and hold or held ${row.company}` };
  return null;
}

/** Why the best candidate's employer does not settle the row: a company whose name is only close to the sheet's, or none. */
function notAtCompany(level: LevelOf<'company'>, company: string): string {
  if (level === 'current_close') return `works at a company whose name is only close to ${company}`;
  if (level === 'past_close') return `worked at a company whose name is only close to ${company}`;
  return `not known to work or have worked at ${company}`;
}

/** What sets the best candidate apart, when that is what makes it certain. */
function withDistinction(best: CandidateAssessment, all: CandidateAssessment[]): string {
  if (all.length > 1 && !isHit(best) && (best.levels.company === 'current_same' || best.levels.company === 'past_same')) {
    return `${best.reason}; the only candidate with this name who ${best.levels.company === 'current_same' ? 'does' : 'did'}`;
  }
  return best.reason;
}
