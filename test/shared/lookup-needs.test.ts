import { describe, expect, it } from 'vitest';
import { lookupShortfall, strategyCanRun } from '../../shared/lookup-needs';
import { DEFAULT_STRATEGIES } from '../../shared/model';

describe('what a mapping needs to look anyone up', () => {
  it('is satisfied by any one strategy that has its columns', () => {
    expect(lookupShortfall({ email: 3 }, DEFAULT_STRATEGIES)).toBeNull();
    expect(lookupShortfall({ profile: 0 }, DEFAULT_STRATEGIES)).toBeNull();
    expect(lookupShortfall({ fullName: 0, company: 1 }, DEFAULT_STRATEGIES)).toBeNull();
    // A first or a last name alone is a name, as the engine reads a row.
    expect(strategyCanRun('name+company', { lastName: 2, company: 1 })).toBe(true);
  });

  it('names what the chosen strategies would ask with when none can run', () => {
    expect(lookupShortfall({ location: 4 }, DEFAULT_STRATEGIES)).toBe(
      'Matchdesk needs at least an e-mail, a profile link, or a name with a company column to look anyone up, and none is mapped.',
    );
    // A name without a company is not enough unless "name alone" is switched on.
    expect(lookupShortfall({ fullName: 0 }, ['email', 'name+company'])).toBe('Matchdesk needs at least an e-mail or a name with a company column to look anyone up, and none is mapped.');
    expect(lookupShortfall({ fullName: 0 }, ['email', 'name+company', 'name'])).toBeNull();
    expect(lookupShortfall({}, ['social'])).toBe('Matchdesk needs at least a profile link column to look anyone up, and none is mapped.');
    expect(lookupShortfall({ email: 0 }, [])).toBe('Matchdesk needs at least one way to look people up: switch one on.');
  });
});
