import { cpus, freemem, totalmem, release, platform, arch } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  freeMemoryGb: number;
  node: string;
  os: string;
  /** 1-minute load average when the bench started: other work on the machine skews every figure. */
  loadAtStart: number;
  loadAtEnd?: number;
  date: string;
}

export function describeMachine(loadAtStart: number): Machine {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGb: Math.round((freemem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()} ${arch()}`,
    loadAtStart: Math.round(loadAtStart * 100) / 100,
    date: new Date().toISOString(),
  };
}

/** A figure with a target: `value` compared with `target` in the direction given. */
export interface TargetCheck {
  id: string;
  label: string;
  value: number;
  unit: string;
  target: number;
  better: 'lower' | 'higher';
  /** value / target; null when the target is zero. */
  ratio: number | null;
  pass: boolean;
  detail?: string;
  /** The issue that set the target (bench/targets.ts), shown in its own column. */
  issue?: number;
}

export function check(id: string, label: string, value: number, unit: string, target: number, better: 'lower' | 'higher', detail?: string): TargetCheck {
  const pass = better === 'lower' ? value <= target : value >= target;
  return { id, label, value, unit, target, better, ratio: target === 0 ? null : value / target, pass, ...(detail ? { detail } : {}) };
}

/** A figure shown for context, without a target. */
export interface Figure {
  label: string;
  value: string;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function num(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : String(value);
}

function valueText(c: TargetCheck): string {
  const digits = Number.isInteger(c.value) || Math.abs(c.value) >= 1000 ? 0 : Math.abs(c.value) >= 10 ? 1 : 2;
  return `${num(c.value, digits)} ${c.unit}`.trim();
}

function targetText(c: TargetCheck): string {
  const digits = Number.isInteger(c.target) ? 0 : Math.abs(c.target) < 1 ? 2 : 1;
  return `${c.better === 'lower' ? '<=' : '>='} ${num(c.target, digits)} ${c.unit}`.trim();
}

const HEADINGS = ['Figure', 'Measured', 'Target', 'Ratio', 'Result'];

const withIssue = (checks: TargetCheck[]) => checks.some((c) => c.issue !== undefined);

function headingsOf(checks: TargetCheck[]): string[] {
  return withIssue(checks) ? [...HEADINGS, 'Issue'] : HEADINGS;
}

function rowsOf(checks: TargetCheck[]): string[][] {
  const issue = withIssue(checks);
  return checks.map((c) => {
    const cells = [c.label, valueText(c), targetText(c), c.ratio === null ? '-' : num(c.ratio, 2), c.pass ? 'PASS' : 'MISS'];
    return issue ? [...cells, c.issue === undefined ? '' : `#${c.issue}`] : cells;
  });
}

/** One step's figures at each sheet size, and its cost per row at the largest size over the smallest. */
export interface ScaleRow {
  label: string;
  values: string[];
  growth: number | null;
}

function scaleHeadings(sizes: number[]): string[] {
  const heads = ['Step', ...sizes.map((n) => `${num(n)} rows`)];
  if (sizes.length > 1) heads.push(`per row, ${num(sizes[sizes.length - 1]!)} / ${num(sizes[0]!)}`);
  return heads;
}

function scaleCells(sizes: number[], rows: ScaleRow[]): string[][] {
  return rows.map((r) => (sizes.length > 1 ? [r.label, ...r.values, r.growth === null ? '' : `${num(r.growth, 2)}x`] : [r.label, ...r.values]));
}

function textTable(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

export function consoleReport(checks: TargetCheck[], table: { sizes: number[]; rows: ScaleRow[] }, figures: Figure[]): string {
  const out = [...textTable(headingsOf(checks), rowsOf(checks)), '', ...textTable(scaleHeadings(table.sizes), scaleCells(table.sizes, table.rows)), ''];
  const labelWidth = Math.max(...figures.map((f) => f.label.length));
  for (const f of figures) out.push(`${f.label.padEnd(labelWidth)}  ${f.value}`);
  return out.join('\n');
}

function markdownTable(head: string[], rows: string[][]): string[] {
  const escape = (s: string) => s.replace(/\|/g, '\\|');
  return [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows.map((r) => `| ${r.map(escape).join(' | ')} |`)];
}

/** A second table of targets with a table of its own below it (the match quality). */
export interface ExtraSection {
  heading: string;
  checks: TargetCheck[];
  table: string;
}

/** The console's table of targets alone (the match quality prints its own below). */
export function consoleTable(checks: TargetCheck[]): string {
  return textTable(headingsOf(checks), rowsOf(checks)).join('\n');
}

export function markdownSection(
  checks: TargetCheck[],
  table: { sizes: number[]; rows: ScaleRow[] },
  figures: Figure[],
  machine: Machine,
  params: string,
  loads: number[],
  extra?: ExtraSection,
): string {
  const escape = (s: string) => s.replace(/\|/g, '\\|');
  const extraLines = extra ? ['', `${extra.heading}:`, '', ...markdownTable(headingsOf(extra.checks), rowsOf(extra.checks)), '', extra.table] : [];
  return [
    `Latest \`npm run bench\` (${machine.date.slice(0, 10)}), ${params}, on ${machine.cpu} (${machine.cores} cores, ${num(machine.memoryGb, 1)} GB), ` +
      `Node ${machine.node}, ${machine.os}; load average ${loads.map((l) => num(l, 2)).join(' and ')} at the start of each size.`,
    '',
    ...markdownTable(headingsOf(checks), rowsOf(checks)),
    '',
    ...markdownTable(scaleHeadings(table.sizes), scaleCells(table.sizes, table.rows)),
    '',
    '| Other figures | |',
    '| --- | --- |',
    ...figures.map((f) => `| ${escape(f.label)} | ${escape(f.value)} |`),
    '',
    'Ratio is measured / target. Full figures: `bench/results.json`.',
    ...extraLines,
  ].join('\n');
}

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** Replaces the section between the bench markers, adding a "## Benchmark" heading and the markers when absent. */
export async function updateReadme(path: string, section: string): Promise<void> {
  const text = await readFile(path, 'utf8');
  const block = `${START}\n${section}\n${END}`;
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  const next =
    start !== -1 && end > start
      ? text.slice(0, start) + block + text.slice(end + END.length)
      : `${text.replace(/\s*$/, '')}\n\n## Benchmark\n\n\`npm run bench\` generates a 100,000-row sheet, starts the simulator in its own process and measures ` +
        `import, matching, the cache, export and review against the targets of \`bench/targets.ts\` (\`npm run bench -- --quick\` for a fast check).\n\n${block}\n`;
  await writeFile(path, next);
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}
