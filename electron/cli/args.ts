import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, with its errors turned into usage errors. */
export function parseCommandArgs<O extends Options>(argv: string[], options: O, positionals = 0) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: positionals > 0, strict: true });
  } catch (err) {
    throw CliError.usage(err instanceof Error ? err.message : String(err));
  }
  if (parsed.positionals.length > positionals) {
    throw CliError.usage(`Unexpected argument "${parsed.positionals[positionals]}".`);
  }
  return parsed;
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

/** An auto-accept threshold: 0.5 to 1 (below 0.5 the best candidate need not be likelier than all the others). */
export function confidenceThreshold(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0.5 || n > 1) throw CliError.usage(`${name} takes a confidence from 0.5 to 1 (e.g. 0.9), not "${value}".`);
  return n;
}
