import { describe, expect, it } from 'vitest';
import { runSimulatorCommand, startSimulator, type Person, type Simulator } from '../../electron/simulator';
import { find, items, loginWithClientCredentials } from './http';

const current = (p: Person) => (p.jobs[0]?.ended_at === null ? p.jobs[0] : null);

async function withSim<T>(options: Parameters<typeof startSimulator>[0], use: (sim: Simulator) => Promise<T>): Promise<T> {
  const sim = await startSimulator({ port: 0, people: 2000, seed: 5, ...options });
  try {
    return await use(sim);
  } finally {
    await sim.close();
  }
}

describe('a world that moves on in epochs', () => {
  it('moves the same people the same way in each epoch on every start, a month apart, and says who moved and who left', async () => {
    const epochs = { share: 0.1, seed: 3 };
    const run = () =>
      withSim({ epochs }, async (sim) => {
        expect(sim.epoch()).toBe(0);
        const reports = [sim.advance(), sim.advance(), sim.advance()];
        expect(sim.epoch()).toBe(3);
        expect(sim.epochs()).toEqual(reports);
        return { reports, people: JSON.stringify(sim.dataset.people) };
      });
    const first = await run();
    const again = await run();
    expect(again.reports).toEqual(first.reports);
    expect(again.people).toBe(first.people);

    const [one, two, three] = first.reports;
    expect([one!.epoch, two!.epoch, three!.epoch]).toEqual([1, 2, 3]);
    for (const report of first.reports) {
      expect(report.moved.length).toBeGreaterThan(50);
      expect(report.left.length).toBeGreaterThan(5);
    }
    expect(one!.month < two!.month && two!.month < three!.month).toBe(true);
    // Each epoch draws its own people: not the first epoch's again.
    expect(two!.moved).not.toEqual(one!.moved);
    // Another move seed, other people.
    const other = await withSim({ epochs: { share: 0.1, seed: 4 } }, async (sim) => sim.advance());
    expect(other.moved).not.toEqual(one!.moved);
  });

  it('answers find with the world of the latest epoch', async () => {
    await withSim({ epochs: { share: 0.3, seed: 2 } }, async (sim) => {
      const token = await loginWithClientCredentials(sim);
      const report = sim.advance();
      const person = sim.dataset.people.find((p) => p.id === report.moved[0])!;
      const [hits] = items(await find(sim, token, [[{ field_name: 'social', search_term: person.linkedin }]]));
      const served = hits![0] as unknown as Person;
      expect(served.jobs[0]!.company.id).toBe(current(person)!.company.id);
      expect(served.jobs[1]!.ended_at).toMatch(new RegExp(`^${report.month}`));
    });
  });

  it('passes an epoch every everyMs of its clock, before the next call is answered', async () => {
    const epochs = { share: 0.2, seed: 1 };
    // The same three epochs stepped by hand: what the clock must come to.
    const stepped = await withSim({ epochs }, async (sim) => [sim.advance(), sim.advance(), sim.advance()]);
    let now = 1_000_000;
    const clock = { now: () => now, sleep: async () => undefined };
    await withSim({ clock, epochs: { ...epochs, everyMs: 60_000 } }, async (sim) => {
      const token = await loginWithClientCredentials(sim);
      const person = sim.dataset.people.find((p) => p.id === stepped[0]!.moved[0])!;
      const companyNow = async () => (items(await find(sim, token, [[{ field_name: 'social', search_term: person.linkedin }]]))[0]![0] as unknown as Person).jobs[0]!.company.id;
      const atStart = await companyNow();
      now += 59_999;
      expect(await companyNow()).toBe(atStart);
      expect(sim.epoch()).toBe(0);
      // A quarter later: three epochs at once, the same as three steps one by one.
      now += 1 + 120_000;
      expect(await companyNow()).not.toBe(atStart);
      expect(sim.epoch()).toBe(3);
      expect(sim.epochs()).toEqual(stepped);
    });
  });

  it('refuses advance() without epochs, and bad epoch options', async () => {
    await withSim({}, async (sim) => {
      expect(() => sim.advance()).toThrow(/no epochs/);
      expect(sim.epoch()).toBe(0);
      expect(sim.epochs()).toEqual([]);
    });
    await expect(startSimulator({ port: 0, people: 10, epochs: { share: 2, seed: 1 } })).rejects.toThrow(/epochs: share must be between 0 and 1/);
    await expect(startSimulator({ port: 0, people: 10, epochs: { share: 0.1, seed: 1, everyMs: 0 } })).rejects.toThrow(/everyMs must be more than 0/);
  });

  it('matchdesk simulator --move-on with --move-every moves on in steps while serving; --move-every alone is refused', async () => {
    const out: string[] = [];
    const stop = new AbortController();
    const running = runSimulatorCommand(['--port', '0', '--people', '300', '--move-on', '0.05', '--move-every', '3600', '--move-seed', '2'], {
      stdout: (t) => void out.push(t),
      stderr: () => undefined,
      signal: stop.signal,
    });
    const deadline = Date.now() + 10_000;
    while (!out.join('').includes('Ctrl+C') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(out.join('')).toMatch(/moves on\s+0\.05 of the people with a current job end it every 3600 s \(move seed 2\)/);
    expect(out.join('')).not.toMatch(/moved on/);
    stop.abort();
    expect(await running).toBe(0);
    const err: string[] = [];
    expect(await runSimulatorCommand(['--port', '0', '--move-every', '60'], { stdout: () => undefined, stderr: (t) => void err.push(t) })).toBe(2);
    expect(err.join('')).toMatch(/--move-every goes with --move-on/);
  });
});
