import type { EvidenceItem } from '../../../../shared/model';
import { EVIDENCE_LABELS, MARK_SYMBOLS, MARK_WORDS, weightText } from './evidence';

/** Each field's evidence for a candidate, for and against, in words. */
export function EvidenceMarks({ evidence }: { evidence: EvidenceItem[] }) {
  if (evidence.length === 0) return null;
  return (
    <ul className="evidence" aria-label="Evidence">
      {evidence.map((item) => (
        <li key={item.field} className={`evidence__mark evidence__mark--${item.mark}`} title={`${EVIDENCE_LABELS[item.field]} ${MARK_WORDS[item.mark]} (${weightText(item.weight)} bits)`}>
          <span aria-hidden="true" className="evidence__symbol">
            {MARK_SYMBOLS[item.mark]}
          </span>{' '}
          <span className="sr-only">{EVIDENCE_LABELS[item.field]}: </span>
          {item.note}
        </li>
      ))}
    </ul>
  );
}
