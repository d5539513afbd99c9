import { describe, expect, it } from 'vitest';
import { CancelledError, Limiter } from '../../../electron/engine/api';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('Limiter', () => {
  it('runs at most max tasks at once and starts the rest in order', async () => {
    const limiter = new Limiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    let peak = 0;
    const runs = gates.map((gate, i) =>
      limiter.run(async () => {
        started.push(i);
        peak = Math.max(peak, limiter.active);
        await gate.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(limiter.queued).toBe(2);
    gates[1].resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
    expect(limiter.active).toBe(0);
  });

  it('frees the slot when a task throws', async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
  });

  it('lets a waiter leave on abort without taking a slot', async () => {
    const limiter = new Limiter(1);
    const gate = deferred();
    const first = limiter.run(() => gate.promise);
    const controller = new AbortController();
    let ran = false;
    const waiting = limiter.run(async () => { ran = true; }, controller.signal);
    expect(limiter.queued).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(CancelledError);
    expect(limiter.queued).toBe(0);
    gate.resolve();
    await first;
    expect(ran).toBe(false);
    expect(limiter.active).toBe(0);
  });

  it('refuses an already aborted signal at once', async () => {
    await expect(new Limiter(3).run(async () => 1, AbortSignal.abort())).rejects.toBeInstanceOf(CancelledError);
  });

  it('refuses a concurrency below 1', () => {
    expect(() => new Limiter(0)).toThrow(RangeError);
  });
});
