import type { EvidenceField, EvidenceItem, EvidenceMark } from '../../../../shared/model';

export const EVIDENCE_LABELS: Record<EvidenceField, string> = {
  email: 'E-mail',
  profile: 'Profile',
  name: 'Name',
  company: 'Company',
  emailDomain: 'E-mail domain',
  location: 'Location',
};

export const MARK_SYMBOLS: Record<EvidenceMark, string> = { same: '✓', close: '≈', differs: '✗', missing: '–' };

export const MARK_WORDS: Record<EvidenceMark, string> = { same: 'agrees', close: 'nearly agrees', differs: 'disagrees', missing: 'not known' };

/** "+5.1" / "−2.3": how much a piece of evidence counts, for a tooltip. */
export function weightText(weight: number): string {
  const rounded = Math.round(weight * 10) / 10;
  return rounded > 0 ? `+${rounded}` : rounded < 0 ? `−${Math.abs(rounded)}` : '0';
}

/** "Name: same name, Company: works at Globex now" for a screen reader or a tooltip. */
export function evidenceSentence(evidence: EvidenceItem[]): string {
  return evidence.map((e) => `${EVIDENCE_LABELS[e.field]}: ${e.note}`).join(', ');
}
