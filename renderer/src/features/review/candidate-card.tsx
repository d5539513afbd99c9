import type { CandidateView } from '../../../../shared/contract';
import { formatConfidence, formatScore } from '../../ui/format';
import { EvidenceMarks } from './evidence-marks';
import { JobHistory } from './job-history';

interface CandidateCardProps {
  candidate: CandidateView;
  /** 1-based place in the list (best first): the key that chooses it. */
  position: number;
  scored: boolean;
  chosen: boolean;
  disabled: boolean;
  onChoose: () => void;
}

export function CandidateCard({ candidate, position, scored, chosen, disabled, onChoose }: CandidateCardProps) {
  const { summary } = candidate;
  const name = summary.name ?? 'Unnamed person';
  const job = [summary.title, summary.company].filter(Boolean).join(' · ');
  const confidence = formatConfidence(candidate.confidence);
  return (
    <li
      className={`candidate ${chosen ? 'candidate--chosen' : ''}`}
      data-testid="candidate-card"
      data-rank={candidate.rank}
      data-position={position}
      aria-label={`Candidate ${position}: ${name}, ${confidence} confident${chosen ? ', chosen' : ''}`}
    >
      <div className="candidate__rank" aria-hidden="true">
        {position}
      </div>
      <div className="candidate__body">
        <div className="candidate__head">
          <span className="candidate__name">{name}</span>
          <span className="candidate__confidence" title="How sure Matchdesk is, from the evidence below" data-testid="candidate-confidence">
            <span className="confidence-bar" aria-hidden="true">
              <span className="confidence-bar__fill" style={{ width: `${Math.round(candidate.confidence * 100)}%` }} />
            </span>
            {confidence}
          </span>
        </div>
        <div className="candidate__job">{job || <span className="muted">No current job listed</span>}</div>
        <div className="candidate__meta">
          {summary.location && <span>{summary.location}</span>}
          {summary.social && <span className="mono candidate__social">{summary.social}</span>}
          {scored && <span title="Score sent by the service">service score {formatScore(candidate.score)}</span>}
          {candidate.rank !== position && <span className="muted">service's #{candidate.rank}</span>}
        </div>
        <EvidenceMarks evidence={candidate.evidence} />
        <JobHistory jobs={candidate.jobs} asOf={candidate.jobsAsOf} />
      </div>
      <div className="candidate__action">
        {chosen ? (
          <span className="badge badge--success">Chosen</span>
        ) : (
          <button type="button" className="button button--secondary button--small" onClick={onChoose} disabled={disabled} aria-label={`Choose ${position}: ${name}`}>
            Choose <kbd>{position}</kbd>
          </button>
        )}
      </div>
    </li>
  );
}
