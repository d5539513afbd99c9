import type { Evidence } from '../../../../shared/model';
import { EVIDENCE_FIELDS, MARK_SYMBOLS, MARK_WORDS } from './evidence';

export function EvidenceMarks({ evidence }: { evidence: Evidence }) {
  return (
    <ul className="evidence" aria-label="Evidence">
      {EVIDENCE_FIELDS.map(({ field, label }) => {
        const mark = evidence[field];
        return (
          <li key={field} className={`evidence__mark evidence__mark--${mark}`} title={`${label}: ${MARK_WORDS[mark]}`}>
            <span aria-hidden="true" className="evidence__symbol">
              {MARK_SYMBOLS[mark]}
            </span>{' '}
            {label}
            <span className="sr-only">: {MARK_WORDS[mark]}</span>
          </li>
        );
      })}
    </ul>
  );
}
