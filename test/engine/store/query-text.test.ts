// How `queries` holds a find query, and the call body written from that text without reading it into objects.
import { describe, expect, it, vi } from 'vitest';
import { queryFromStored, storedQuery, storedQueryFields } from '../../../electron/engine/store/query-text';
import type { FindQuery } from '../../../shared/model';

/** What the service client writes for a query given as an object: the spec's two fields of each term. */
const objectFields = (q: FindQuery) => q.fields.map((f) => JSON.stringify({ field_name: f.field_name, search_term: f.search_term })).join(',');

describe('a stored query', () => {
  const tricky: FindQuery[] = [
    { fields: [{ field_name: 'name', search_term: 'Ada Lovelace' }] },
    { fields: [{ field_name: 'name', search_term: 'Zoë "Z" O\'Brien' }, { field_name: 'company.name', search_term: 'Acme \\ Sons' }] },
    // Text that looks like the stored form's own punctuation, escapes that end in a quote, and characters JSON escapes.
    { fields: [{ field_name: 'name', search_term: '"],["company.name","x"]]' }, { field_name: 'email_address', search_term: 'a\\"b\\\\' }] },
    { fields: [{ field_name: 'name', search_term: 'tab\there\nline\u0000nul \ud800 lone, 😀 李' }] },
    { fields: [{ field_name: 'name', search_term: '' }, { field_name: '', search_term: '\\' }] },
    { fields: [] },
  ];

  it('reads back as it was stored', () => {
    for (const q of tricky) expect(queryFromStored(storedQuery(q))).toEqual(q);
  });

  it('is written into a call body as the same text its object makes, without being read as JSON', () => {
    const stored = tricky.map(storedQuery);
    const parse = vi.spyOn(JSON, 'parse');
    const written = stored.map(storedQueryFields);
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    expect(written).toEqual(tricky.map(objectFields));
  });

  it('in any other JSON form is read, and one that is not JSON is refused', () => {
    const q = tricky[1]!;
    expect(storedQueryFields(' [ ["name", "Zoë \\"Z\\" O\'Brien"] , ["company.name","Acme \\\\ Sons"] ] ')).toBe(objectFields(q));
    expect(storedQueryFields('[["name","Ada Lovelace"]]\n')).toBe(objectFields(tricky[0]!));
    for (const broken of ['[["name","Ada', '[["name","Ada"],', '[["name","Ada"]]]', '[["name" "Ada"]]']) expect(() => storedQueryFields(broken)).toThrow(SyntaxError);
  });
});
