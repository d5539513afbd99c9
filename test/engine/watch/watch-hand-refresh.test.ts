// A refresh of a watched project started by hand counts as the watch's once done: the projects list's "last" is its
// result, and the next refresh is due a period after it (asking the same people again days later would spend credits
// on nothing).
import { describe, expect, it } from 'vitest';
import { ok } from '../core/helpers';
import { DAY, WatchedProject } from './watched-project';

const project = new WatchedProject('matchdesk-watch-hand-');

describe('a refresh started by hand on a watched project', () => {
  it('is the watch’s refresh once done: its result is the last one, and the next is due a period after it', async () => {
    const { engine, projectId } = await project.start({ rows: { still: 40, moved: 10, left: 5 } });
    project.later(3 * DAY);

    await ok(engine, 'refresh.start', { projectId });
    expect((await engine.refreshSettled(projectId))!.status).toBe('done');
    const watch = (await ok(engine, 'watch.list'))[0]!;
    expect(watch.lastResult).toMatch(/^\d+ people asked: \d+ moved, \d+ left, \d+ changed title\.$/);
    const sinceDone = Date.parse(watch.nextRefreshAt) - project.clock.now();
    expect(sinceDone).toBeGreaterThan(7 * DAY - 60_000);
    expect(sinceDone).toBeLessThanOrEqual(7 * DAY);
  });
});
