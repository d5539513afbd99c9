import { MAPPED_FIELDS, type MappedField, type Mapping } from '../../../shared/model';
import { GENERIC_COMPANY_WORDS, companyKey } from './company-names';
import { comparable, foldWhitespace, isPlaceholder, normalizeEmail, profileSlugFromUrl } from './normalize';

export interface ColumnGuess {
  field: MappedField;
  column: number;
  /** 0..1 */
  confidence: number;
  /** In the user's words: "header 'Work Email'", "92% of cells look like e-mails". */
  reason: string;
}

// ----- headers -----------------------------------------------------------------------------------------------

/**
 * A header names a field when it holds at least one of the field's core words and nothing but core words,
 * qualifiers and fillers. So "Work Email" and "E-Mail-Adresse" are e-mail, while "Email status",
 * "Company URL", "Company LinkedIn" and "Manager name" match nothing: an unknown word changes the meaning.
 */
interface HeaderRule {
  cores: Record<string, number>;
  qualifiers: string[];
}

const HEADER_RULES: Record<MappedField, HeaderRule> = {
  fullName: {
    cores: { name: 0.9, nom: 0.85, naam: 0.85, nombre: 0.85, nome: 0.85, person: 0.6, contact: 0.5 },
    qualifiers: ['full', 'complete', 'complet', 'completo', 'vollstandiger', 'voller', 'display', 'contact', 'person', 'lead',
      'prospect', 'candidate', 'employee', 'member', 'attendee', 'participant', 'speaker', 'guest', 'individual', 'people'],
  },
  firstName: {
    cores: { first: 0.8, given: 0.8, forename: 0.9, prenom: 0.9, vorname: 0.9, voornaam: 0.9, fname: 0.8, christian: 0.6 },
    qualifiers: ['name', 'nom', 'naam', 'names', 'contact', 'person'],
  },
  lastName: {
    cores: { last: 0.8, surname: 0.9, family: 0.8, famille: 0.8, nachname: 0.9, familienname: 0.9, achternaam: 0.9,
      apellido: 0.9, apellidos: 0.9, cognome: 0.9, sobrenome: 0.9, lname: 0.8 },
    qualifiers: ['name', 'nom', 'naam', 'names', 'contact', 'person'],
  },
  email: {
    cores: { email: 0.95, mail: 0.8, courriel: 0.95, correo: 0.9, epost: 0.9, electronique: 0.7 },
    qualifiers: ['address', 'adresse', 'adres', 'direccion', 'endereco', 'work', 'business', 'personal', 'private', 'privat',
      'prive', 'primary', 'main', 'professional', 'pro', 'office', 'corporate', 'company', 'contact', 'id', 'verified',
      'electronico', 'electronica', 'electronique', 'geschaftlich', 'geschaftliche', 'person', 'secondary', 'alternate',
      'alternative', 'other', 'home'],
  },
  profile: {
    cores: { linkedin: 0.95, profile: 0.55, profil: 0.55, social: 0.5, li: 0.5, url: 0.35, link: 0.35 },
    qualifiers: ['url', 'link', 'lien', 'profile', 'profil', 'public', 'person', 'contact', 'personal', 'handle', 'slug',
      'id', 'page', 'address', 'username', 'member'],
  },
  company: {
    cores: { company: 0.9, employer: 0.9, organization: 0.85, organisation: 0.85, org: 0.6, account: 0.6, firma: 0.9,
      entreprise: 0.9, societe: 0.85, unternehmen: 0.9, empresa: 0.9, bedrijf: 0.9, azienda: 0.9, arbeitgeber: 0.9,
      employeur: 0.9, business: 0.6 },
    qualifiers: ['name', 'nom', 'nombre', 'naam', 'current', 'present', 'legal', 'display', 'raison', 'sociale', 'contact',
      'workplace', 'primary'],
  },
  // Where the person lives: a city tells namesakes apart better than a country, so it wins when both are there.
  location: {
    cores: { location: 0.85, city: 0.8, town: 0.75, locality: 0.8, ville: 0.8, ciudad: 0.8, stadt: 0.8, ort: 0.75, wohnort: 0.8,
      standort: 0.8, citta: 0.8, cidade: 0.8, plaats: 0.75, country: 0.6, pays: 0.6, land: 0.5, pais: 0.6, region: 0.5 },
    qualifiers: ['current', 'home', 'person', 'contact', 'geo', 'name', 'residence', 'based', 'primary'],
  },
};

// Words that are not part of the meaning: articles, prepositions, possessives.
const FILLERS = new Set(['the', 'of', 'de', 'du', 'des', 'la', 'le', 'l', 'd', 'der', 'die', 'das', 'your', 's', 'da', 'del', 'el', 'a', 'van', 'het']);

// Words written together in headers ("FIRSTNAME", "e-mail", "Linked In").
const JOINED: Record<string, string> = {
  firstname: 'first name', lastname: 'last name', fullname: 'full name', surname: 'surname', givenname: 'given name',
  familyname: 'family name', emailaddress: 'email address', emailadresse: 'email adresse', companyname: 'company name',
  linkedinurl: 'linkedin url', linkedinprofile: 'linkedin profile', profileurl: 'profile url', contactname: 'contact name',
  accountname: 'account name', displayname: 'display name', 'e mail': 'email', 'e post': 'epost', 'linked in': 'linkedin',
};
const JOINED_PATTERN = new RegExp(`\\b(?:${Object.keys(JOINED).sort((a, b) => b.length - a.length).join('|')})\\b`, 'gu');

export function headerWords(header: string): string[] {
  const split = String(header ?? '')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2');
  const words = comparable(split).replace(JOINED_PATTERN, (w) => JOINED[w] ?? w);
  return words.split(' ').filter((w) => w !== '' && !FILLERS.has(w) && !/^\p{N}+$/u.test(w));
}

interface HeaderScore {
  confidence: number;
  /** The header names the field but qualifies it with a word we do not know ("Manager Email", "Company URL"). */
  contradicted: boolean;
}

function headerScore(field: MappedField, words: string[]): HeaderScore {
  const rule = HEADER_RULES[field];
  let best = 0;
  let qualified = false;
  let unknown = false;
  for (const word of words) {
    const core = rule.cores[word];
    if (core !== undefined) best = Math.max(best, core);
    else if (rule.qualifiers.includes(word)) qualified = true;
    else unknown = true;
  }
  if (best === 0) return { confidence: 0, contradicted: false };
  if (unknown) return { confidence: 0, contradicted: true };
  return { confidence: Math.min(0.95, best + (qualified ? 0.1 : 0)), contradicted: false };
}

// Headers that say nothing ("Column 3", "Unnamed: 0", "", "B"): only then may weak content (names, companies)
// suggest a field. Under a meaningful header ("Account Owner") names are somebody else's.
const GENERIC_HEADER_WORDS = new Set(['column', 'col', 'field', 'unnamed', 'untitled', 'spalte', 'colonne', 'columna', 'colonna', 'kolom', 'data', 'value', 'values']);

function isGenericHeader(words: string[]): boolean {
  return words.every((w) => GENERIC_HEADER_WORDS.has(w) || /^\p{L}$/u.test(w));
}

// "Name" beside "Vorname"/"Prénom" is the surname; "Nombre"/"Nome" beside "Apellido"/"Cognome" is the first name.
const SURNAME_OR_FULL = new Set(['name', 'nom', 'naam']);
const FIRST_OR_FULL = new Set(['nombre', 'nome']);

interface ColumnHeader {
  generic: boolean;
  scores: Map<MappedField, HeaderScore>;
}

function readHeaders(headers: string[]): ColumnHeader[] {
  const words = headers.map(headerWords);
  const columns = words.map((w) => ({ generic: isGenericHeader(w), scores: new Map(MAPPED_FIELDS.map((f) => [f, headerScore(f, w)] as const)) }));
  const has = (field: MappedField) => columns.some((c) => c.scores.get(field)!.confidence > 0);
  const hasFirst = has('firstName');
  const hasLast = has('lastName');
  words.forEach((w, i) => {
    if (w.length !== 1) return;
    const scores = columns[i]!.scores;
    const swapTo: MappedField | null = SURNAME_OR_FULL.has(w[0]!) && hasFirst && !hasLast ? 'lastName'
      : FIRST_OR_FULL.has(w[0]!) && hasLast && !hasFirst ? 'firstName' : null;
    if (swapTo) {
      scores.set(swapTo, scores.get('fullName')!);
      scores.set('fullName', { confidence: 0, contradicted: false });
    }
  });
  return columns;
}

// ----- cell contents -----------------------------------------------------------------------------------------

const TITLE_WORDS = new Set([
  'manager', 'director', 'engineer', 'head', 'vp', 'president', 'officer', 'sales', 'marketing', 'lead', 'senior', 'chief',
  'ceo', 'cto', 'cfo', 'coo', 'developer', 'analyst', 'consultant', 'founder', 'cofounder', 'partner', 'associate',
  'specialist', 'coordinator', 'executive', 'assistant', 'designer', 'product', 'and', 'intern', 'recruiter', 'owner',
  'greater', 'area', 'united', 'states', 'kingdom', 'new', 'san', 'los', 'las', 'city', 'region', 'county', 'metropolitan',
]);
const NAME_PARTICLES = new Set(['de', 'da', 'di', 'do', 'dos', 'das', 'del', 'della', 'der', 'den', 'van', 'von', 'la', 'le', 'du', 'bin', 'al', 'el', 'y']);
const CAPITALIZED_WORD = /^[\p{Lu}\p{Lt}\p{Lo}][\p{L}\p{M}'’.-]*$/u;

export function looksLikeCompany(cell: string): boolean {
  const words = comparable(cell).split(' ').filter(Boolean);
  if (words.length === 0) return false;
  if (words.length > 1 && companyKey(cell) !== words.join(' ')) return true;
  return words.some((w) => w.length > 3 && GENERIC_COMPANY_WORDS.has(w));
}

export function looksLikePersonName(cell: string): boolean {
  const s = foldWhitespace(cell);
  if (s.length > 80 || /[\p{N}@/\\:;|_()&+]/u.test(s)) return false;
  const words = s.replace(/,/gu, ' ').split(' ').filter(Boolean);
  if (words.length < 2 || words.length > 5) return false;
  if (looksLikeCompany(s) || comparable(s).split(' ').some((w) => TITLE_WORDS.has(w))) return false;
  const capitalized = words.filter((w) => CAPITALIZED_WORD.test(w)).length;
  return capitalized >= 2 && words.every((w) => CAPITALIZED_WORD.test(w) || NAME_PARTICLES.has(w));
}

/** 1 for a LinkedIn profile link; 0.7 for a bare lower-case hyphenated slug ("jane-doe-1a2b"), 0 otherwise. */
function profileWeight(cell: string): number {
  const result = profileSlugFromUrl(cell);
  if (!result.ok) return 0;
  if (/[/.]/u.test(cell)) return 1;
  const s = foldWhitespace(cell);
  return s === s.toLowerCase() && /\p{L}-[\p{L}\p{N}]/u.test(s) ? 0.7 : 0;
}

interface ContentShares {
  filled: number;
  email: number;
  profile: number;
  name: number;
  company: number;
}

// Enough rows to judge a column; detection runs on every import and must stay instant.
const SAMPLE_LIMIT = 200;

function contentShares(rows: string[][], column: number): ContentShares {
  let filled = 0;
  let email = 0;
  let profile = 0;
  let name = 0;
  let company = 0;
  for (const row of rows.slice(0, SAMPLE_LIMIT)) {
    const value: unknown = Array.isArray(row) ? row[column] : undefined;
    const cell = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
    if (isPlaceholder(cell)) continue;
    filled++;
    if (normalizeEmail(cell).ok) email++;
    profile += profileWeight(cell);
    if (looksLikePersonName(cell)) name++;
    if (looksLikeCompany(cell)) company++;
  }
  const share = (n: number) => (filled === 0 ? 0 : n / filled);
  return { filled, email: share(email), profile: share(profile), name: share(name), company: share(company) };
}

const CONTENT_WORDS: Partial<Record<MappedField, string>> = {
  email: 'e-mails',
  profile: 'LinkedIn profile links',
  fullName: 'person names',
  company: 'company names',
};

/** Confidence from cell contents alone: strong for e-mails and links, weak for names and companies. */
function contentConfidence(field: MappedField, shares: ContentShares): number {
  switch (field) {
    case 'email':
      return shares.email >= 0.5 ? 0.5 + 0.45 * shares.email : 0;
    case 'profile':
      return shares.profile >= 0.5 ? 0.5 + 0.45 * shares.profile : 0;
    case 'fullName':
      return shares.name >= 0.6 ? 0.3 + 0.35 * shares.name : 0;
    case 'company':
      return shares.company >= 0.3 ? 0.3 + 0.3 * shares.company : 0;
    default:
      return 0;
  }
}

function contentShareOf(field: MappedField, shares: ContentShares): number {
  return field === 'email' ? shares.email : field === 'profile' ? shares.profile : field === 'fullName' ? shares.name : shares.company;
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

// Below this a guess is noise: better no suggestion than a wrong one the user must notice.
const MIN_CONFIDENCE = 0.3;

function scoreColumn(field: MappedField, headerText: string, header: ColumnHeader, shares: ContentShares): ColumnGuess | null {
  const shown = `header '${foldWhitespace(headerText)}'`;
  const fromHeaderWords = header.scores.get(field)!;
  let fromHeader = fromHeaderWords.confidence;
  let headerReason = shown;
  const strongContent = field === 'email' || field === 'profile';
  if (fromHeader > 0 && strongContent && shares.filled >= 3) {
    // The cells contradict the header ("Email verified" full of TRUE/FALSE): believe the cells.
    const share = contentShareOf(field, shares);
    if (share < 0.1) fromHeader = 0;
    else if (share < 0.5) {
      fromHeader *= 0.5;
      headerReason = `${shown}, but only ${percent(share)} of cells look like ${CONTENT_WORDS[field]}`;
    }
  } else if (fromHeader > 0 && !strongContent) {
    // A "Contact" column full of e-mails holds e-mails, not names.
    fromHeader *= 1 - Math.max(shares.email, shares.profile);
  }
  const contentCounts = !fromHeaderWords.contradicted && (strongContent || fromHeader > 0 || header.generic);
  const fromContent = contentCounts ? contentConfidence(field, shares) : 0;
  const contentReason = `${percent(contentShareOf(field, shares))} of cells look like ${CONTENT_WORDS[field] ?? ''}`;
  let confidence: number;
  let reason: string;
  if (fromHeader > 0 && fromContent > 0) {
    confidence = Math.min(0.99, Math.max(fromHeader, fromContent) + 0.04);
    reason = `${headerReason}; ${contentReason}`;
  } else if (fromHeader >= fromContent) {
    confidence = fromHeader;
    reason = headerReason;
  } else {
    confidence = fromContent;
    reason = contentReason;
  }
  return confidence >= MIN_CONFIDENCE ? { field, column: -1, confidence: Math.round(confidence * 100) / 100, reason } : null;
}

/**
 * Suggests which column holds which field, from header words (several languages, case/accent/punctuation
 * insensitive) and from what the sample cells look like. Cells beat a weak header. Each column serves one
 * field and each field one column, best confidence first. A lone first or last name column is dropped: a
 * name query needs both. A full-name column AND first/last columns are all kept (they are distinct columns):
 * fullNameFrom() then uses the full name and falls back to "first last" on rows where it is blank.
 * Only a suggestion: the user confirms or changes it.
 */
export function detectMapping(headers: string[], sampleRows: string[][]): { mapping: Mapping; guesses: ColumnGuess[] } {
  const safeHeaders = Array.isArray(headers) ? headers.map((h) => (typeof h === 'string' ? h : String(h ?? ''))) : [];
  const rows = Array.isArray(sampleRows) ? sampleRows.filter(Array.isArray) : [];
  const width = Math.max(safeHeaders.length, 0, ...rows.slice(0, SAMPLE_LIMIT).map((r) => r.length));
  const padded = Array.from({ length: width }, (_, i) => safeHeaders[i] ?? '');
  const columnHeaders = readHeaders(padded);

  const options: ColumnGuess[] = [];
  for (let column = 0; column < width; column++) {
    const shares = contentShares(rows, column);
    for (const field of MAPPED_FIELDS) {
      const guess = scoreColumn(field, padded[column]!, columnHeaders[column]!, shares);
      if (guess) options.push({ ...guess, column });
    }
  }
  options.sort((a, b) => b.confidence - a.confidence || a.column - b.column || MAPPED_FIELDS.indexOf(a.field) - MAPPED_FIELDS.indexOf(b.field));

  const chosen = new Map<MappedField, ColumnGuess>();
  const usedColumns = new Set<number>();
  for (const option of options) {
    if (chosen.has(option.field) || usedColumns.has(option.column)) continue;
    chosen.set(option.field, option);
    usedColumns.add(option.column);
  }
  if (chosen.has('firstName') !== chosen.has('lastName')) {
    chosen.delete('firstName');
    chosen.delete('lastName');
  }

  const guesses = MAPPED_FIELDS.flatMap((field) => {
    const guess = chosen.get(field);
    return guess ? [guess] : [];
  });
  const mapping: Mapping = {};
  for (const guess of guesses) mapping[guess.field] = guess.column;
  return { mapping, guesses };
}
