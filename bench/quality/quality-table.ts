// The per-category table of a scored evaluation run, for the terminal and for the README.
import { EVALUATION_CATEGORIES } from '../../electron/simulator/evaluation-set';
import type { QualityFigures, QualityScore } from './score-evaluation';

const HEADINGS = ['Category', 'Rows', 'Auto', 'Wrong auto', 'Precision', 'Accept alone', 'Coverage', 'True person in review candidates'];

const share = (value: number | null) => (value === null ? '-' : `${(value * 100).toFixed(1)}%`);

function cells(label: string, f: QualityFigures): string[] {
  return [
    label,
    String(f.rows),
    String(f.automatic),
    String(f.wrongAutomatic),
    share(f.precision),
    String(f.acceptAloneRows),
    share(f.coverage),
    f.reviewRowsWithTruth === 0 ? '-' : `${share(f.truthAmongCandidatesShare)} (${f.truthAmongCandidates}/${f.reviewRowsWithTruth})`,
  ];
}

function tableRows(score: QualityScore): string[][] {
  return [...EVALUATION_CATEGORIES.map((c) => cells(c, score.byCategory[c])), cells('overall', score.overall)];
}

export function qualityConsoleTable(score: QualityScore): string {
  const rows = tableRows(score);
  const widths = HEADINGS.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (row: string[]) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(HEADINGS), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function qualityMarkdownTable(score: QualityScore): string {
  return [
    `| ${HEADINGS.join(' | ')} |`,
    `|${HEADINGS.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...tableRows(score).map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}
