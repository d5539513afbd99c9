import { describe, expect, it } from 'vitest';
import { translateBrowserInput } from '../../electron/web/browser-files';

// The search calls that name files get the browser host's file rules: uploads only in, downloads only out.
describe('search calls in the browser host', () => {
  const uploads = { pathOf: (ref: string) => (ref === 'upload:AAAAAAAAAAAAAAAAAAAAAA' ? '/data/uploads/AAAA/companies.csv' : null) };

  it('reads column values only from an uploaded sheet, never from a path on this computer', () => {
    expect(translateBrowserInput('search.columnValues', { file: 'upload:AAAAAAAAAAAAAAAAAAAAAA', column: 'Company' }, uploads)).toEqual({
      ok: true,
      input: { file: '/data/uploads/AAAA/companies.csv', column: 'Company' },
    });
    expect(translateBrowserInput('search.columnValues', { file: '/home/ana/.ssh/known_hosts', column: 0 }, uploads)).toMatchObject({
      ok: false,
      error: { code: 'path_refused' },
    });
    expect(translateBrowserInput('search.columnValues', { projectId: 3, column: 0 }, uploads)).toEqual({ ok: true, input: { projectId: 3, column: 0 } });
  });

  it('refuses a search export destination and lets the host choose', () => {
    expect(translateBrowserInput('search.export', { searchId: 1, destination: '/home/ana/.bashrc' }, uploads)).toMatchObject({ ok: false, error: { code: 'path_refused' } });
    expect(translateBrowserInput('search.export', { searchId: 1, format: 'xlsx' }, uploads)).toEqual({ ok: true, input: { searchId: 1, format: 'xlsx', destination: null } });
  });
});
