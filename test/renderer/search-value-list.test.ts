import { describe, expect, it } from 'vitest';
import { guessColumn } from '../../renderer/src/features/search/column-guess';
import { columnReference, parseValueList, valueListText } from '../../renderer/src/features/search/value-list';

describe('a list of values as typed or pasted', () => {
  it('reads a column pasted from a sheet one value per line, blanks dropped and repeats kept once', () => {
    expect(parseValueList('acme\r\nglobex\n\n  initech  \nacme\n')).toEqual({ values: ['acme', 'globex', 'initech'], duplicates: 1 });
  });

  it('splits one typed line on commas and semicolons', () => {
    expect(parseValueList('acme, globex;initech ,, ').values).toEqual(['acme', 'globex', 'initech']);
  });

  it('keeps commas inside values when the list is one per line', () => {
    expect(parseValueList('VP, Sales\nHead of Data').values).toEqual(['VP, Sales', 'Head of Data']);
  });

  it('splits tabs, as a row copied from a sheet arrives', () => {
    expect(parseValueList('acme\tglobex').values).toEqual(['acme', 'globex']);
  });

  it('folds inner whitespace and gives nothing for an empty box', () => {
    expect(parseValueList('  Senior   Engineer ').values).toEqual(['Senior Engineer']);
    expect(parseValueList('   \n \n').values).toEqual([]);
  });

  it('shows a list one per line, which reads back as the same list', () => {
    const values = ['a-b', 'VP, Sales', 'c'];
    expect(parseValueList(valueListText(values)).values).toEqual(values);
  });
});

describe('naming a column of a sheet file', () => {
  it('takes a 1-based number as the column index and anything else as a header', () => {
    expect(columnReference('1')).toBe(0);
    expect(columnReference(' 12 ')).toBe(11);
    expect(columnReference('Company page')).toBe('Company page');
    expect(columnReference('0')).toBeNull();
    expect(columnReference('  ')).toBeNull();
  });

  it('starts the picker on the column most likely to hold the field', () => {
    const headers = ['Name', 'Company', 'Company LinkedIn', 'Title'];
    expect(guessColumn(headers, 'jobs.company.social')).toBe(2);
    expect(guessColumn(headers, 'jobs.company.name')).toBe(1);
    expect(guessColumn(headers, 'jobs.title')).toBe(3);
    expect(guessColumn(['Slug'], 'jobs.company.social')).toBe(0);
    expect(guessColumn(['A', 'B'], 'jobs.level')).toBe(0);
  });
});
