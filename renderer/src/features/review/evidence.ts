import type { Evidence, EvidenceMark } from '../../../../shared/model';

export const EVIDENCE_FIELDS: { field: keyof Evidence; label: string }[] = [
  { field: 'email', label: 'E-mail' },
  { field: 'social', label: 'Profile' },
  { field: 'name', label: 'Name' },
  { field: 'company', label: 'Company' },
];

export const MARK_SYMBOLS: Record<EvidenceMark, string> = { same: '✓', close: '≈', differs: '✗', missing: '–' };

export const MARK_WORDS: Record<EvidenceMark, string> = { same: 'same', close: 'close', differs: 'differs', missing: 'missing' };

/** "E-mail: same, Name: close, ..." for a screen reader or a tooltip. */
export function evidenceSentence(evidence: Evidence): string {
  return EVIDENCE_FIELDS.map(({ field, label }) => `${label}: ${MARK_WORDS[evidence[field]]}`).join(', ');
}
