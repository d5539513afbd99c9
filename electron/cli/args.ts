import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CONFIDENCE_THRESHOLD_RANGE } from '../../shared/model';
import { editDistance } from '../engine/matching/edit-distance';
import { CliError } from './cli-error';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, with its errors turned into usage errors. */
export function parseCommandArgs<O extends Options>(argv: string[], options: O, positionals = 0) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: positionals > 0, strict: true });
  } catch (err) {
    throw CliError.usage(usageMessage(err, options));
  }
  if (parsed.positionals.length > positionals) {
    throw CliError.usage(`Unexpected argument "${parsed.positionals[positionals]}".`);
  }
  return parsed;
}

/** parseArgs' error in the CLI's words: an unknown option names the one meant, when one is close, or else them all. */
function usageMessage(err: unknown, options: Options): string {
  const message = err instanceof Error ? err.message : String(err);
  const unknown = (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-[^']*)'/.exec(message)?.[1] : undefined;
  if (unknown === undefined) return message;
  const known = Object.keys(options).map((name) => `--${name}`);
  const meant = closestOption(unknown, known);
  if (meant) return `Unknown option ${unknown}. Did you mean ${meant}?`;
  return known.length > 0 ? `Unknown option ${unknown}. This command takes ${known.join(', ')}.` : `Unknown option ${unknown}: this command takes no options.`;
}

/** The option a typo most likely meant: at most two edits away (one for short names), or the only one it starts. */
export function closestOption(typed: string, known: readonly string[]): string | null {
  const name = typed.replace(/=.*$/, '').toLowerCase();
  const withDashes = name.startsWith('--') ? name : `--${name.replace(/^-+/, '')}`;
  let best: { option: string; distance: number } | null = null;
  for (const option of known) {
    const distance = editDistance(withDashes, option, 2);
    const allowed = option.length <= 5 ? 1 : 2;
    if (distance <= allowed && (!best || distance < best.distance)) best = { option, distance };
  }
  if (best) return best.option;
  const started = known.filter((option) => withDashes.length >= 4 && option.startsWith(withDashes));
  return started.length === 1 ? started[0]! : null;
}

export function positiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw CliError.usage(`${name} takes a whole number of 1 or more, not "${value}".`);
  return n;
}

export function exportFormat(path: string): 'csv' | 'xlsx' {
  const lower = path.toLowerCase();
  if (lower.endsWith('.xlsx')) return 'xlsx';
  if (lower.endsWith('.csv') || lower.endsWith('.tsv') || lower.endsWith('.txt')) return 'csv';
  throw CliError.usage(`Cannot tell the format of "${path}": name it .csv or .xlsx.`);
}

/** An auto-accept threshold, in the range the settings take. */
export function confidenceThreshold(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  const { min, max } = CONFIDENCE_THRESHOLD_RANGE;
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw CliError.usage(`${name} takes a confidence from ${min} to ${max} (e.g. 0.9), not "${value}".`);
  return n;
}
