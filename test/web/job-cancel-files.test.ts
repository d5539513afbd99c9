import { describe, expect, it } from 'vitest';
import { translateBrowserInput } from '../../electron/web/browser-files';

// job.cancel names a file only to cancel an import of it: the browser host turns the page's upload reference into
// the path the engine's import job has, and refuses a path the page names, as it does for projects.import itself.
describe("job.cancel's file in the browser host", () => {
  it('an uploaded file becomes its path, a path on this computer is refused, no file passes', () => {
    const uploads = { pathOf: (ref: string) => (ref === 'upload:AAAAAAAAAAAAAAAAAAAAAA' ? '/data/uploads/AAAA/people.csv' : null) };
    expect(translateBrowserInput('job.cancel', { kind: 'import', file: 'upload:AAAAAAAAAAAAAAAAAAAAAA' }, uploads)).toEqual({
      ok: true,
      input: { kind: 'import', file: '/data/uploads/AAAA/people.csv' },
    });
    expect(translateBrowserInput('job.cancel', { kind: 'import', file: '/home/ana/people.csv' }, uploads)).toMatchObject({ ok: false, error: { code: 'path_refused' } });
    expect(translateBrowserInput('job.cancel', { projectId: 3, kind: 'export' }, uploads)).toEqual({ ok: true, input: { projectId: 3, kind: 'export' } });
  });
});
