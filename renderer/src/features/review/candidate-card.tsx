import type { CandidateView } from '../../../../shared/contract';
import { formatScore } from '../../ui/format';
import { EvidenceMarks } from './evidence-marks';

interface CandidateCardProps {
  candidate: CandidateView;
  scored: boolean;
  chosen: boolean;
  disabled: boolean;
  onChoose: () => void;
}

export function CandidateCard({ candidate, scored, chosen, disabled, onChoose }: CandidateCardProps) {
  const { summary } = candidate;
  const name = summary.name ?? 'Unnamed person';
  const job = [summary.title, summary.company].filter(Boolean).join(' · ');
  return (
    <li className={`candidate ${chosen ? 'candidate--chosen' : ''}`} data-testid="candidate-card" data-rank={candidate.rank} aria-label={`Candidate ${candidate.rank}: ${name}${chosen ? ', chosen' : ''}`}>
      <div className="candidate__rank" aria-hidden="true">
        {candidate.rank}
      </div>
      <div className="candidate__body">
        <div className="candidate__head">
          <span className="candidate__name">{name}</span>
          <span className="candidate__score" title={scored ? 'Score sent by the service' : 'The service sent no scores: only the order tells which is best'}>
            {scored ? formatScore(candidate.score) : 'rank only'}
          </span>
        </div>
        <div className="candidate__job">{job || <span className="muted">No current job listed</span>}</div>
        <div className="candidate__meta">
          {summary.location && <span>{summary.location}</span>}
          {summary.social && <span className="mono">{summary.social}</span>}
        </div>
        <EvidenceMarks evidence={candidate.evidence} />
      </div>
      <div className="candidate__action">
        {chosen ? (
          <span className="badge badge--success">Chosen</span>
        ) : (
          <button type="button" className="button button--secondary button--small" onClick={onChoose} disabled={disabled} aria-label={`Choose ${candidate.rank}: ${name}`}>
            Choose <kbd>{candidate.rank}</kbd>
          </button>
        )}
      </div>
    </li>
  );
}
