import { describe, expect, it } from 'vitest';
import { strategyNeeds, withField } from '../../renderer/src/features/import-mapping/field-labels';
import { bestGuesses, initialMapping } from '../../renderer/src/features/import-mapping/initial-mapping';
import { fileNameOf, isSupportedSheetName, rememberSheetSource, sheetSourceOf } from '../../renderer/src/features/import-mapping/sheet-file';
import { chosenStrategies, initialStrategyChoice, moveStrategy, toggleStrategy } from '../../renderer/src/features/import-mapping/strategy-order';

describe('strategy order', () => {
  it('starts from the saved strategies, the others off at the end', () => {
    const choice = initialStrategyChoice(['social', 'email']);
    expect(choice.order).toEqual(['social', 'email', 'name+company', 'name']);
    expect(chosenStrategies(choice)).toEqual(['social', 'email']);
  });

  it('defaults to e-mail, profile, name + company with name alone off', () => {
    const choice = initialStrategyChoice([]);
    expect(chosenStrategies(choice)).toEqual(['email', 'social', 'name+company']);
    expect(choice.order[3]).toBe('name');
  });

  it('moves up and down, and not past the ends', () => {
    const choice = initialStrategyChoice(['email', 'social', 'name+company']);
    expect(moveStrategy(choice, 'social', -1).order).toEqual(['social', 'email', 'name+company', 'name']);
    expect(moveStrategy(choice, 'email', -1)).toBe(choice);
    expect(moveStrategy(choice, 'name', 1)).toBe(choice);
  });

  it('sends switched-on strategies in the user order', () => {
    let choice = initialStrategyChoice(['email', 'social', 'name+company']);
    choice = toggleStrategy(choice, 'name', true);
    choice = moveStrategy(choice, 'name', -1);
    choice = toggleStrategy(choice, 'email', false);
    expect(chosenStrategies(choice)).toEqual(['social', 'name', 'name+company']);
  });
});

describe('mapping', () => {
  const detail = {
    headers: ['Name', 'Mail', 'Firm', 'LinkedIn'],
    mapping: {},
    guesses: [
      { field: 'email' as const, column: 1, confidence: 0.9, reason: 'header "Mail"' },
      { field: 'fullName' as const, column: 0, confidence: 0.8, reason: 'header "Name"' },
      { field: 'fullName' as const, column: 2, confidence: 0.3, reason: 'looks like names' },
      { field: 'profile' as const, column: 9, confidence: 0.9, reason: 'out of range' },
    ],
  };

  it('preselects the most confident guess per field when nothing is saved', () => {
    expect(bestGuesses(detail.guesses).fullName?.column).toBe(0);
    expect(initialMapping(detail)).toEqual({ email: 1, fullName: 0 });
  });

  it('keeps a saved mapping over the guesses', () => {
    expect(initialMapping({ ...detail, mapping: { company: 2 } })).toEqual({ company: 2 });
  });

  it('sets and clears one field', () => {
    expect(withField({ email: 1 }, 'company', 2)).toEqual({ email: 1, company: 2 });
    expect(withField({ email: 1, company: 2 }, 'company', -1)).toEqual({ email: 1 });
  });

  it('says what each strategy lacks', () => {
    expect(strategyNeeds('email', {})).toBe('needs an e-mail column');
    expect(strategyNeeds('email', { email: 0 })).toBeNull();
    expect(strategyNeeds('name+company', { firstName: 0, lastName: 1 })).toBe('needs a company column');
    expect(strategyNeeds('name+company', { firstName: 0, company: 2 })).toMatch(/full name/);
    expect(strategyNeeds('name', { fullName: 0 })).toBeNull();
    expect(strategyNeeds('social', { profile: 3 })).toBeNull();
  });
});

describe('sheet files', () => {
  it('accepts the formats the engine reads', () => {
    for (const name of ['a.csv', 'B.TSV', 'c.txt', 'people.xlsx']) expect(isSupportedSheetName(name)).toBe(true);
    for (const name of ['a.xls', 'photo.png', 'csv', 'notes.docx']) expect(isSupportedSheetName(name)).toBe(false);
  });

  it('names a file from a path on any OS', () => {
    expect(fileNameOf('/home/a/people.csv')).toBe('people.csv');
    expect(fileNameOf('C:\\Users\\a\\people.xlsx')).toBe('people.xlsx');
    expect(fileNameOf('upload:abc')).toBe('upload:abc');
  });

  it('remembers which file a project came from', () => {
    const memory = new Map<string, string>();
    const store = { getItem: (k: string) => memory.get(k) ?? null, setItem: (k: string, v: string) => void memory.set(k, v) };
    expect(sheetSourceOf(store, 4)).toBeNull();
    rememberSheetSource(store, 4, 'upload:1');
    rememberSheetSource(store, 5, 'upload:2');
    expect(sheetSourceOf(store, 4)).toBe('upload:1');
    memory.set('matchdesk.sheetSources', 'not json');
    expect(sheetSourceOf(store, 4)).toBeNull();
  });
});
