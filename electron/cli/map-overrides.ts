import type { ProjectDetail } from '../../shared/contract';
import { MAPPED_FIELDS, type MappedField, type Mapping } from '../../shared/model';
import { CliError } from './cli-error';

/** `--map field=Column`: Column is a header name (case-insensitive) or a 1-based column number; `field=` unmaps. */
export function applyMapOverrides(detail: Pick<ProjectDetail, 'headers' | 'mapping'>, overrides: string[]): Mapping {
  const mapping: Mapping = { ...detail.mapping };
  for (const entry of overrides) {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw CliError.usage(`--map takes field=Column, not "${entry}".`);
    const field = entry.slice(0, eq).trim() as MappedField;
    const column = entry.slice(eq + 1).trim();
    if (!(MAPPED_FIELDS as readonly string[]).includes(field)) {
      throw CliError.usage(`Unknown field "${field}" in --map. Fields: ${MAPPED_FIELDS.join(', ')}.`);
    }
    if (column === '') {
      delete mapping[field];
      continue;
    }
    const byName = detail.headers.findIndex((h) => h.toLowerCase() === column.toLowerCase());
    const byNumber = /^\d+$/.test(column) ? Number(column) - 1 : -1;
    const index = byName >= 0 ? byName : byNumber;
    if (index < 0 || index >= detail.headers.length) {
      throw CliError.usage(`No column "${column}" for --map ${field}. Columns: ${detail.headers.join(', ')}.`);
    }
    mapping[field] = index;
  }
  return mapping;
}

/** The sheet's columns and how to say which holds what, for a mapping that gives nothing to look up. */
export function mapHint(headers: string[], command = ''): string {
  return `Columns: ${headers.join(', ')}. Say which column holds what with ${command}--map field=Column (fields: ${MAPPED_FIELDS.join(', ')}).`;
}
