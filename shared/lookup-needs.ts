// Whether a mapping gives the chosen strategies anything to look up. A sheet where none of them can run would
// "succeed" with no row to ask for, so the command line refuses it and the mapping screen does not go on.
import type { Mapping, Strategy } from './model';

function hasName(mapping: Mapping): boolean {
  // As the engine reads a row: a full name, or a first or a last name (queries.ts, rowInput).
  return mapping.fullName !== undefined || mapping.firstName !== undefined || mapping.lastName !== undefined;
}

/** Whether `strategy` has the columns it asks with in this mapping. */
export function strategyCanRun(strategy: Strategy, mapping: Mapping): boolean {
  switch (strategy) {
    case 'email':
      return mapping.email !== undefined;
    case 'social':
      return mapping.profile !== undefined;
    case 'name+company':
      return hasName(mapping) && mapping.company !== undefined;
    case 'name':
      return hasName(mapping);
  }
}

const WANTS: Record<Strategy, string> = {
  email: 'an e-mail',
  social: 'a profile link',
  'name+company': 'a name with a company',
  name: 'a name',
};

/**
 * Null when at least one of `strategies` can run on this mapping; otherwise what is missing, in words ("Matchdesk
 * needs at least an e-mail, a profile link, or a name with a company column to look anyone up.").
 */
export function lookupShortfall(mapping: Mapping, strategies: readonly Strategy[]): string | null {
  if (strategies.some((strategy) => strategyCanRun(strategy, mapping))) return null;
  if (strategies.length === 0) return 'Matchdesk needs at least one way to look people up: switch one on.';
  const wants = strategies.map((strategy) => WANTS[strategy]);
  const list = wants.length === 1 ? wants[0] : `${wants.slice(0, -1).join(', ')}${wants.length > 2 ? ',' : ''} or ${wants.at(-1)}`;
  return `Matchdesk needs at least ${list} column to look anyone up, and none is mapped.`;
}
