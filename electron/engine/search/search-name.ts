import { fieldInfo } from '../../../shared/fields';
import type { SearchFilter } from '../../../shared/search-filters';

const MAX_NAME = 120;

/** A short name for a search nobody named: its filters in words, e.g. "Company profile slug: acme, globex +3; Job ended from 2024-01-01". */
export function searchName(filters: readonly SearchFilter[]): string {
  const parts = filters.map((f) => {
    const label = fieldInfo(f.field)?.label ?? f.field;
    const not = f.type === 'must_not' ? 'not ' : '';
    if (f.match_type === 'exists') return `${label} ${f.type === 'must_not' ? 'missing' : 'present'}`;
    if (f.date_from !== undefined || f.date_to !== undefined) {
      const range = [f.date_from ? `from ${f.date_from}` : '', f.date_to ? `to ${f.date_to}` : ''].filter(Boolean).join(' ');
      return `${label} ${not}${range}`;
    }
    const values = f.string_values ?? [];
    const shown = values.slice(0, 2).join(', ');
    return `${label}: ${not}${shown}${values.length > 2 ? ` +${values.length - 2}` : ''}`;
  });
  const name = parts.join('; ');
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 3)}...` : name || 'Search';
}
