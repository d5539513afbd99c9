// The whole match-confidence model in one object, each weight with its reason (in the manner of Splink's settings).
//
// How it works (Fellegi-Sunter over the candidates the service returned, no service score needed):
// - Each field of the row is compared with each candidate and lands on one level (same name, nickname, works at
//   the sheet's company now, ...). A level has m = P(level | the candidate is the row's person) and
//   u = P(level | the candidate is someone else the service returned); its weight is log2(m / u) bits.
//   u is judged among the people the service returns for the row, not among everyone: a name query returns
//   namesakes first, so an exact name is common among wrong candidates and weighs little on its own.
// - A candidate's weight is the sum over fields. The row's person is one of the candidates or none of them, so
//   each candidate's raw score is its share: 2^w / (2^w_none + sum over candidates of 2^w), where w_none comes
//   from the prior that the person is not among them. Two candidates that fit equally well share the evidence,
//   which is how namesakes at one employer keep each other below any threshold.
// - That share is a score, not yet a probability: calibration (calibration.ts, fitted by `npm run calibrate` on the
//   labeled evaluation set) maps it to the share of such candidates that turn out to be the row's person, one map
//   per kind of row (clear, or the guard that stops it), so a candidate shown at 70% is the person about 70% of
//   the time.
// - Guards (assess-row.ts) stop a row from being accepted alone whatever its confidence: the cases where a careful
//   person would look first however good the figures seem. They do not change the confidence: a twin shows about
//   50%, a near name what near names turn out to be.
// The m and u figures are judgements from how CRM sheets and the service's find behave,
// checked against the simulator's labeled evaluation set (`npm run eval`).

import { CALIBRATION } from './calibration';

export interface Level {
  /** P(level | this candidate is the row's person). */
  m: number;
  /** P(level | this candidate is someone else the service returned for the row). */
  u: number;
  why: string;
}

/** A level that carries no information (the field is missing on either side): weight 0. */
const NO_INFORMATION: Level = { m: 1, u: 1, why: 'Nothing to compare: the sheet or the record lacks the field.' };

export const CONFIDENCE_MODEL = {
  /**
   * Bump it with any change to how a verdict is worked out that no figure here shows (assess-row.ts' guards, a
   * comparison's levels): a run copies a verdict between projects only when the model is the same one
   * (runs/verdict-basis.ts), and within one app version only this tells two models apart.
   */
  version: 4,

  notAmongCandidates: {
    probability: 0.3,
    why:
      'Before any evidence, how often the row\'s person is none of the people returned. A CRM sheet holds people who ' +
      'left the field, changed their name or are not in the data set; a name + company query then still returns the ' +
      'nearest namesakes. Without this, the best of five wrong candidates would look certain.',
  },

  comparisons: {
    name: {
      why: 'The sheet\'s full name against the record\'s, accents and case folded (name-comparison.ts).',
      levels: {
        exact: { m: 0.86, u: 0.2, why: 'Sheets mostly carry the name the profile shows; but the service returns namesakes first, so one in five wrong candidates has the exact name too.' },
        first_last: { m: 0.05, u: 0.15, why: 'A middle name or a second surname on one side only: sometimes the same person, but for a common name the service returns such longer names of other people first.' },
        nickname: { m: 0.03, u: 0.06, why: 'Bob for Robert: sometimes the same person, as often a colleague who goes by it. Raises a candidate over other names, never accepts alone.' },
        typo: { m: 0.01, u: 0.12, why: 'Anna / Anne, Steven / Stephen: near-names come back beside the exact name and are nearly always other people; sheets seldom misspell.' },
        initial: { m: 0.02, u: 0.04, why: '"J. Smith": fits every J. Smith equally.' },
        last_only: { m: 0.01, u: 0.3, why: 'Same last name, another first name: a relative or a namesake, seldom the same person; the service returns many.' },
        first_only: { m: 0.015, u: 0.3, why: 'Same first name, another last name: a changed surname now and then; a colleague with that first name far more often, and the service returns many.' },
        differs: { m: 0.004, u: 0.25, why: 'Another name altogether: almost never the same person (a shared or recycled mailbox).' },
        missing: NO_INFORMATION,
      },
    },
    company: {
      why: 'The sheet\'s company against every job on the record, current and past (company-names.ts).',
      levels: {
        current_same: { m: 0.7, u: 0.02, why: 'Most CRM rows are current; a namesake at the same employer is rare.' },
        past_same: { m: 0.22, u: 0.012, why: 'The sheet is older than the person\'s move: a past employer identifies almost as well.' },
        current_close: { m: 0.05, u: 0.01, why: 'The sheet writes the employer with a descriptive word more or less ("CYBERDYNE" for Cyberdyne Systems, "Black Mesa Research" for Black Mesa), a typo or an acronym: nearly always the same company, a sister company ("Acme" / "Acme Robotics") now and then. A shared word alone is no agreement (company-names.ts).' },
        past_close: { m: 0.015, u: 0.006, why: 'A close name among past jobs only: the sheet is older than the move and wrote the company another way; weaker than the very name, as namesakes at a sister company are listed too.' },
        differs: { m: 0.04, u: 0.93, why: 'No job at the sheet\'s company: the person\'s record would nearly always show it.' },
        missing: NO_INFORMATION,
      },
    },
    email: {
      why: 'The sheet\'s e-mail: found by it (the service matched the mailbox), or compared with addresses on the record.',
      levels: {
        found_by: { m: 0.97, u: 0.0005, why: 'The service found this person by the row\'s exact address; shared and recycled mailboxes are the rare exception.' },
        record_same: { m: 0.9, u: 0.0001, why: 'The record lists the very address.' },
        record_close: { m: 0.05, u: 0.001, why: 'The same mailbox written another way (plus-tag, Gmail dots).' },
        record_differs: { m: 0.05, u: 0.3, why: 'The record lists other addresses: people have several, so this counts little.' },
        missing: NO_INFORMATION,
      },
    },
    profile: {
      why: 'The sheet\'s profile link (its slug) against the record\'s.',
      levels: {
        same: { m: 0.98, u: 0.00005, why: 'A profile slug names one person.' },
        differs: { m: 0.01, u: 0.5, why: 'The record\'s profile is another one: a different person unless the slug changed.' },
        missing: NO_INFORMATION,
      },
    },
    emailDomain: {
      why: 'A work address\'s domain against the record\'s employers (webmail domains say nothing).',
      levels: {
        current_company: { m: 0.55, u: 0.01, why: 'A work address at the current employer: strong, namesakes rarely share it.' },
        past_company: { m: 0.15, u: 0.005, why: 'An old work address from a past employer.' },
        other_company: { m: 0.3, u: 0.98, why: 'A work address at a company the record does not list: weak, records miss jobs.' },
        missing: NO_INFORMATION,
      },
    },
    location: {
      why: 'The sheet\'s location (when mapped) against the record\'s city, region and country.',
      levels: {
        same_city: { m: 0.6, u: 0.08, why: 'Namesakes are spread over many cities.' },
        same_country: { m: 0.25, u: 0.25, why: 'Same country, another city: says little.' },
        differs: { m: 0.15, u: 0.67, why: 'Another country: people move, so it counts against but not much.' },
        missing: NO_INFORMATION,
      },
    },
  },

  /** Raw share -> probability, per kind of row (calibrate.ts): data, regenerated by `npm run calibrate`. */
  calibration: CALIBRATION,
} as const;

export type Comparison = keyof typeof CONFIDENCE_MODEL.comparisons;
export type LevelOf<C extends Comparison> = keyof (typeof CONFIDENCE_MODEL.comparisons)[C]['levels'];

/** The weight of a level in bits: log2(m / u). */
export function weightOf<C extends Comparison>(comparison: C, level: LevelOf<C>): number {
  const levels = CONFIDENCE_MODEL.comparisons[comparison].levels as Record<string, Level>;
  const { m, u } = levels[level as string]!;
  return Math.log2(m / u);
}

/** Every level's weight, worked out once. */
export const WEIGHTS: { [C in Comparison]: Record<LevelOf<C>, number> } = Object.fromEntries(
  (Object.keys(CONFIDENCE_MODEL.comparisons) as Comparison[]).map((c) => [
    c,
    Object.fromEntries(Object.keys(CONFIDENCE_MODEL.comparisons[c].levels).map((level) => [level, weightOf(c, level as never)])),
  ]),
) as never;
