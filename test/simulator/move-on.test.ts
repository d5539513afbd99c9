import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDataset, moveOn, runSimulatorCommand, startSimulator, type Person } from '../../electron/simulator';
import { find, items, loginWithClientCredentials } from './http';

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const current = (p: Person) => (p.jobs[0]?.ended_at === null ? p.jobs[0] : null);

describe('the world moving on', () => {
  it('leaves a dataset nobody moved byte for byte as it was (pinned), and moves the same people the same way for a seed', () => {
    // Pinned before move-on existed: building a dataset must not change with it.
    expect(digest(buildDataset(3000, 4))).toBe('6cb6637f999960c88f64379e4fcd370fbb42cca9a16d7d20dd35468da3e9d493');
    const a = buildDataset(3000, 4);
    const b = buildDataset(3000, 4);
    const reportA = moveOn(a, { share: 0.3, seed: 9 });
    const reportB = moveOn(b, { share: 0.3, seed: 9 });
    expect(reportB).toEqual(reportA);
    expect(digest(b)).toBe(digest(a));
    const c = buildDataset(3000, 4);
    expect(moveOn(c, { share: 0.3, seed: 10 }).moved).not.toEqual(reportA.moved);
    const untouched = buildDataset(3000, 4);
    expect(moveOn(untouched, { share: 0, seed: 9 })).toMatchObject({ moved: [], left: [] });
    expect(digest(untouched)).toBe(digest(buildDataset(3000, 4)));
  });

  it('ends the current job of about the share asked, after every earlier date: most start elsewhere, some leave, the rest stay', () => {
    const before = buildDataset(5000, 2);
    const after = buildDataset(5000, 2);
    const employed = before.people.filter((p) => current(p)).length;
    const report = moveOn(after, { share: 0.3, seed: 4, leaveShare: 0.25 });
    const changed = report.moved.length + report.left.length;
    expect(changed / employed).toBeGreaterThan(0.25);
    expect(changed / employed).toBeLessThan(0.35);
    expect(report.left.length / changed).toBeGreaterThan(0.18);
    expect(report.left.length / changed).toBeLessThan(0.32);
    expect(report.month).toMatch(/^\d{4}-\d{2}$/);

    const moved = new Set(report.moved);
    const left = new Set(report.left);
    const latestBefore = before.people.flatMap((p) => p.jobs.flatMap((j) => [j.started_at, j.ended_at ?? ''])).sort().at(-1)!;
    const problems: string[] = [];
    after.people.forEach((person, i) => {
      const was = before.people[i]!;
      const wasJob = current(was);
      if (moved.has(person.id)) {
        const now = current(person)!;
        if (!now || now.company.id === wasJob!.company.id) problems.push(`${person.id}: moved but still at ${wasJob!.company.name}`);
        if (person.jobs[1]!.company.id !== wasJob!.company.id || !(person.jobs[1]!.ended_at! > latestBefore)) problems.push(`${person.id}: old job not ended after ${latestBefore}`);
        if (person.jobs.length !== was.jobs.length + 1) problems.push(`${person.id}: job count`);
        if (person.position !== `${now.title} at ${now.company.name}`) problems.push(`${person.id}: position ${person.position}`);
      } else if (left.has(person.id)) {
        if (current(person) || person.position !== null) problems.push(`${person.id}: left but has a current job`);
        if (person.jobs[0]!.company.id !== wasJob!.company.id || !person.jobs[0]!.ended_at!.startsWith(report.month)) problems.push(`${person.id}: ended job`);
      } else if (JSON.stringify(person) !== JSON.stringify(was)) {
        problems.push(`${person.id}: changed without moving or leaving`);
      }
    });
    expect(problems.slice(0, 5)).toEqual([]);

    // A second move comes after the first.
    const second = moveOn(after, { share: 0.1, seed: 5 });
    expect(second.month > report.month).toBe(true);
  });

  it('writes an end that is no date for the share asked, on moved and left people alike', () => {
    const dataset = buildDataset(4000, 3);
    const report = moveOn(dataset, { share: 0.5, seed: 1, unreadableDates: 0.2 });
    expect(report.unreadable.length).toBeGreaterThan(50);
    const byId = new Map(dataset.people.map((p) => [p.id, p]));
    for (const id of report.unreadable) {
      const person = byId.get(id)!;
      const ended = report.moved.includes(id) ? person.jobs[1]! : person.jobs[0]!;
      expect(ended.ended_at).toMatch(/^sometime in \d{4}$/);
    }
  });

  it('leaves the end out for the share asked, and gives some people a new profile slug, without changing who moves', () => {
    const plain = moveOn(buildDataset(4000, 3), { share: 0.5, seed: 1 });
    const dataset = buildDataset(4000, 3);
    const report = moveOn(dataset, { share: 0.5, seed: 1, missingDates: 0.2, newProfiles: 0.05 });
    expect(report.moved).toEqual(plain.moved);
    expect(report.left).toEqual(plain.left);
    expect(report.missing.length).toBeGreaterThan(50);
    const byId = new Map(dataset.people.map((p) => [p.id, p]));
    for (const id of report.missing) {
      const person = byId.get(id)!;
      const ended = report.moved.includes(id) ? person.jobs[1]! : person.jobs[0]!;
      expect(ended.ended_at).toBeNull();
    }
    expect(report.newProfiles.length).toBeGreaterThan(100);
    const slugs = new Set(dataset.people.map((p) => p.linkedin));
    expect(slugs.size).toBe(dataset.people.length);
    for (const { id, oldSlug } of report.newProfiles) {
      expect(byId.get(id)!.linkedin.startsWith(`${oldSlug}-`)).toBe(true);
      expect(slugs.has(oldSlug)).toBe(false);
    }
  });

  it('refuses shares outside 0 to 1', () => {
    expect(() => moveOn(buildDataset(10, 1), { share: 1.5, seed: 1 })).toThrow(/share must be between 0 and 1/);
    expect(() => moveOn(buildDataset(10, 1), { share: 0.1, seed: 1, leaveShare: -1 })).toThrow(/leaveShare/);
  });

  it('answers find with the new jobs once the simulator has moved on', async () => {
    const sim = await startSimulator({ port: 0, people: 2000, seed: 6 });
    try {
      const token = await loginWithClientCredentials(sim);
      const report = sim.moveOn({ share: 0.5, seed: 2 });
      const person = sim.dataset.people.find((p) => p.id === report.moved[0])!;
      const [hits] = items(await find(sim, token, [[{ field_name: 'social', search_term: person.linkedin }]]));
      const served = hits![0] as unknown as Person;
      expect(served.id).toBe(person.id);
      expect(served.jobs[0]!.company.id).toBe(person.jobs[0]!.company.id);
      expect(served.jobs[1]!.ended_at).toMatch(new RegExp(`^${report.month}`));
      // Found under the new company too: the index was made again.
      const [byCompany] = items(await find(sim, token, [[{ field_name: 'name', search_term: person.name }, { field_name: 'company.name', search_term: person.jobs[0]!.company.name }]]));
      expect(byCompany!.map((p) => p.id)).toContain(person.id);
    } finally {
      await sim.close();
    }
  });

  it('matchdesk simulator --move-on serves the same people with the share moved on, and refuses a share out of range', async () => {
    const out: string[] = [];
    const stop = new AbortController();
    const running = runSimulatorCommand(['--port', '0', '--people', '500', '--seed', '3', '--move-on', '0.4', '--move-seed', '7'], {
      stdout: (t) => void out.push(t),
      stderr: () => undefined,
      signal: stop.signal,
    });
    const deadline = Date.now() + 10_000;
    while (!out.join('').includes('Ctrl+C') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(out.join('')).toMatch(/moved on\s+0\.4 of the people with a current job ended it \(move seed 7\)/);
    stop.abort();
    expect(await running).toBe(0);
    const err: string[] = [];
    expect(await runSimulatorCommand(['--port', '0', '--move-on', '2'], { stdout: () => undefined, stderr: (t) => void err.push(t) })).toBe(2);
    expect(err.join('')).toMatch(/--move-on takes a share from 0 to 1/);
  });
});
