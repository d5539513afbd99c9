import { describe, expect, it } from 'vitest';
import { sourceOptionLabel, startFromLabel } from '../../renderer/src/features/review/learning-sources';

describe('starting from what another project learned', () => {
  it('names each project, what it learned from, and a sheet of another kind', () => {
    expect(sourceOptionLabel({ projectId: 1, name: 'Contacts', labels: 12, sameKind: true })).toBe('Contacts (12 decisions)');
    expect(sourceOptionLabel({ projectId: 2, name: 'Leads', labels: 1, sameKind: false })).toBe('Leads (1 decision), another kind of sheet');
  });

  it('says whose learning its button starts from', () => {
    expect(startFromLabel({ projectId: 1, name: 'Contacts', labels: 12, sameKind: true })).toBe('Start from what Contacts learned');
  });
});
