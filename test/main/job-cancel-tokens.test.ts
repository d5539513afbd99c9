import { describe, expect, it } from 'vitest';
import { PickedFiles } from '../../electron/main/picked-files';
import { translateTokens } from '../../electron/main/token-paths';

// job.cancel names a file only to cancel an import of it: Electron turns the window's token into the path the
// engine's import job has, and refuses a path the page names, as it does for projects.import itself.
describe("job.cancel's file in Electron", () => {
  it("a picked file's token becomes its path for the window that picked it, a path is refused, no file passes", () => {
    const picked = new PickedFiles();
    const window = { id: 7 };
    const token = picked.issue(window, '/home/ana/people.csv', 'read');
    expect(translateTokens('job.cancel', { kind: 'import', file: token }, window, picked)).toEqual({ ok: true, input: { kind: 'import', file: '/home/ana/people.csv' } });
    expect(translateTokens('job.cancel', { kind: 'import', file: token }, { id: 8 }, picked)).toMatchObject({ ok: false, error: { code: 'token_unknown' } });
    expect(translateTokens('job.cancel', { kind: 'import', file: '/home/ana/people.csv' }, window, picked)).toMatchObject({ ok: false, error: { code: 'path_refused' } });
    expect(translateTokens('job.cancel', { jobId: 4 }, window, picked)).toEqual({ ok: true, input: { jobId: 4 } });
  });
});
