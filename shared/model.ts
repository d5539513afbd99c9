// Plain-JSON types shared by the engine, the hosts and the renderer. Nothing here may import Node or Electron.

export const CREDENTIAL_KINDS = ['service_account', 'password', 'api_key'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** A saved connection. The secret lives only in the OS keychain (service `matchdesk`, account = profile id). */
export interface Profile {
  id: string;
  name: string;
  baseUrl: string;
  orgId: string;
  kind: CredentialKind;
  /** Client id for a service account, username for a password login, null for an API key. */
  login: string | null;
  createdAt: string;
}

/** A person record exactly as the service sent it. Known fields are read defensively: they are undocumented. */
export type PersonJson = Record<string, unknown>;

/** One field term of a find query, as sent to the service. */
export interface FindTerm {
  field_name: string;
  search_term: string;
}

export interface FindQuery {
  fields: FindTerm[];
}

/** A person returned for a find query: rank 1 is best; score only when the service sent one. */
export interface Candidate {
  rank: number;
  score: number | null;
  person: PersonJson;
}

/** The fields of a person the review screen and exports show, read defensively from PersonJson. */
export interface PersonSummary {
  id: string | null;
  name: string | null;
  title: string | null;
  company: string | null;
  social: string | null;
  location: string | null;
}

/** Find strategies, tried per row in order until one finds somebody. */
export const STRATEGIES = ['email', 'social', 'name+company', 'name'] as const;
export type Strategy = (typeof STRATEGIES)[number];
export const DEFAULT_STRATEGIES: Strategy[] = ['email', 'social', 'name+company'];

/** What a column of the sheet can be mapped to. firstName + lastName combine into a full name. */
export const MAPPED_FIELDS = ['fullName', 'firstName', 'lastName', 'email', 'profile', 'company', 'location'] as const;
export type MappedField = (typeof MAPPED_FIELDS)[number];
/** Field -> 0-based column index in the imported sheet. */
export type Mapping = Partial<Record<MappedField, number>>;

/** Evidence for one input field, computed locally from the person's fields. */
export const EVIDENCE_MARKS = ['same', 'close', 'differs', 'missing'] as const;
export type EvidenceMark = (typeof EVIDENCE_MARKS)[number];
export interface Evidence {
  email: EvidenceMark;
  social: EvidenceMark;
  name: EvidenceMark;
  company: EvidenceMark;
}

/** The fields the confidence model compares (electron/engine/matching/confidence-model.ts). */
export const EVIDENCE_FIELDS = ['email', 'profile', 'name', 'company', 'emailDomain', 'location'] as const;
export type EvidenceField = (typeof EVIDENCE_FIELDS)[number];

/** One field's evidence for a candidate: its level in the model, its weight in bits, and a note in words. */
export interface EvidenceItem {
  field: EvidenceField;
  level: string;
  mark: EvidenceMark;
  /** log2(m / u): positive for, negative against. */
  weight: number;
  note: string;
}

/** Where the matched person is now, against the sheet's company (electron/engine/matching/job-change.ts). */
export const JOB_CHANGES = ['no_change', 'moved', 'left', 'unknown'] as const;
export type JobChangeStatus = (typeof JOB_CHANGES)[number];
export interface JobChange {
  status: JobChangeStatus;
  /** When the job at the sheet's company ended (moved and left), as precise as the record says. */
  date: string | null;
  /** The current position, when the record has one. */
  currentCompany: string | null;
  currentTitle: string | null;
  reason: string;
}

/**
 * A row's state. Decided: auto, accepted, rejected (none fits), skipped.
 * Undecided: to_review, no_candidates, error, offline (not fetched), pending (not looked up yet), no_query (nothing usable to ask).
 */
export const ROW_STATES = ['to_review', 'auto', 'accepted', 'rejected', 'skipped', 'no_candidates', 'error', 'offline', 'pending', 'no_query'] as const;
export type RowState = (typeof ROW_STATES)[number];
/** The states a person decides by hand. */
export const MANUAL_STATES: readonly RowState[] = ['accepted', 'rejected', 'skipped'];
export const DECIDED_STATES: readonly RowState[] = ['auto', ...MANUAL_STATES];

/**
 * When a run accepts a row without review: the best candidate's confidence (0..1, computed locally) is at least
 * minConfidence, at least minLead ahead of the runner-up's, and no guard applies (matching/assess-row.ts).
 */
export interface AutoAcceptRule {
  enabled: boolean;
  minConfidence: number;
  minLead: number;
}

/** The thresholds a user may set. Below 0.5 the best candidate need not even be likelier than the rest together. */
export const CONFIDENCE_THRESHOLD_RANGE = { min: 0.5, max: 1 } as const;
/** The lead over the runner-up a user may ask for: the difference of two confidences. */
export const LEAD_RANGE = { min: 0, max: 1 } as const;

export interface Settings {
  concurrency: number;
  cacheTtlDays: number;
  autoAccept: AutoAcceptRule;
  activeProfileId: string | null;
}

export const DEFAULT_SETTINGS: Settings = {
  concurrency: 4,
  cacheTtlDays: 30,
  // Precision first: a wrong automatic match is worse than a row left for review. A calibrated 0.95 keeps exact
  // name + employer, e-mail and profile hits, and leaves every row with a rival candidate or a guard for a person.
  autoAccept: { enabled: true, minConfidence: 0.95, minLead: 0.5 },
  activeProfileId: null,
};
