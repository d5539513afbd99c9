// The match-quality targets of issues 10, 43 and 45, checked on a scored evaluation run. Measured, never asserted: the
// bench and `npm run eval` print them; the engine's tests decide what must hold.
import { check, type TargetCheck } from '../report';
import type { JobChangeScore } from './job-change-score';
import type { Reliability } from './reliability';
import type { QualityScore } from './score-evaluation';

export const QUALITY_TARGETS = {
  /** Wrong automatic accepts, as a share of automatic accepts (0.1%). */
  wrongShareOfAutomatic: 0.001,
  /** Right automatic accepts / rows a careful human would accept alone. */
  coverage: 0.95,
  /** Rows left for review whose candidates hold the true person, of those with one. */
  truthAmongCandidates: 0.99,
  /** Expected calibration error of the confidences shown between 0.05 and 0.95 (reliability.ts). */
  expectedCalibrationError: 0.05,
  /** Accepted rows (and rows whose top candidate is the person) whose stored job change is the world's, before and after a refresh (issue 45). */
  jobChangeRight: 0.995,
} as const;

const percent = (share: number | null) => (share === null ? 0 : share * 100);

export function qualityChecks(score: QualityScore): TargetCheck[] {
  const { overall, byCategory } = score;
  const autoOn = (category: 'twins' | 'absent' | 'conflicting_name') => byCategory[category].automatic;
  return [
    check('quality_wrong_automatic', 'Wrong automatic accepts', percent(overall.wrongShare), '% of automatic', QUALITY_TARGETS.wrongShareOfAutomatic * 100, 'lower',
      `${overall.wrongAutomatic} of ${overall.automatic}`),
    check('quality_coverage', 'Coverage (right accepts / accept-alone rows)', percent(overall.coverage), '%', QUALITY_TARGETS.coverage * 100, 'higher',
      `${overall.acceptAloneAccepted} of ${overall.acceptAloneRows}`),
    check('quality_auto_twins', 'Automatic accepts on twins', autoOn('twins'), 'rows', 0, 'lower'),
    check('quality_auto_absent', 'Automatic accepts on absent people', autoOn('absent'), 'rows', 0, 'lower'),
    check('quality_auto_conflicting', 'Automatic accepts on conflicting names', autoOn('conflicting_name'), 'rows', 0, 'lower'),
    check('quality_truth_in_review', 'True person among candidates left for review', percent(overall.truthAmongCandidatesShare), '%', QUALITY_TARGETS.truthAmongCandidates * 100, 'higher',
      `${overall.truthAmongCandidates} of ${overall.reviewRowsWithTruth}`),
  ];
}

/** Whether a candidate shown at p is the row's person about p of the time (issue 43). */
export function calibrationCheck(r: Reliability): TargetCheck {
  return check('quality_calibration', `Calibration error (candidates shown ${r.from}-${r.to})`, r.expectedCalibrationError ?? 0, '', QUALITY_TARGETS.expectedCalibrationError, 'lower',
    `${r.candidates} candidates`);
}

/**
 * Whether the rows carry the job change the world says (issue 45): the accepted rows, or every row matched to its
 * person (accepted, or whose top candidate is the person and a reviewer accepted); `when` names the moment measured.
 */
export function jobChangeCheck(score: JobChangeScore, when: 'before' | 'after', rows: 'accepted' | 'matched' = 'accepted'): TargetCheck {
  const id = `quality_job_change${rows === 'matched' ? '_matched' : ''}${when === 'after' ? '_refreshed' : ''}`;
  const which = rows === 'accepted' ? 'accepted rows' : 'rows whose top candidate is the person';
  return check(id, `Job change right on ${which}${when === 'after' ? ', after a refresh' : ''}`, percent(score.share), '%', QUALITY_TARGETS.jobChangeRight * 100, 'higher',
    `${score.right} of ${score.rows}`);
}
