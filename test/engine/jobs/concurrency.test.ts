import { describe, expect, it } from 'vitest';
import { JOB_KINDS, type JobKind } from '../../../shared/contract';
import { OVERLAP, admit, enter, type Action, type UnderWay } from '../../../electron/engine/jobs/concurrency';
import { EngineError } from '../../../electron/engine/engine-errors';

const ACTIONS = Object.keys(OVERLAP) as Action[];

describe('the overlap table (jobs/concurrency.ts)', () => {
  it('has a row for every kind of job and every action, and says only refuse, wait or cancel', () => {
    expect(new Set(ACTIONS)).toEqual(new Set([...JOB_KINDS, 'decide', 'delete']));
    for (const asked of ACTIONS) for (const overlap of Object.values(OVERLAP[asked])) expect(['refuse', 'wait', 'cancel']).toContain(overlap);
  });

  it('admits each pair as its cell says: refused as busy, told to wait or to cancel, or run together', () => {
    for (const asked of ACTIONS) {
      for (const underWay of JOB_KINDS) {
        const cell = OVERLAP[asked][underWay];
        if (cell === 'refuse') {
          let error: unknown;
          try {
            admit(asked, [underWay], 'Sheet');
          } catch (e) {
            error = e;
          }
          expect(error, `${asked} while ${underWay}`).toBeInstanceOf(EngineError);
          expect((error as EngineError).kind).toBe('busy');
          expect((error as EngineError).message).toMatch(/Try again in a moment|Pause or cancel it first|before clearing the cache/);
        } else {
          expect(admit(asked, [underWay], 'Sheet'), `${asked} while ${underWay}`).toEqual({ wait: cell === 'wait' ? [underWay] : [], cancel: cell === 'cancel' ? [underWay] : [] });
        }
      }
    }
  });

  it('keeps the rules the app relies on', () => {
    // A run and a refresh both write a project's rows: one at a time.
    expect(OVERLAP.run.refresh).toBe('refuse');
    expect(OVERLAP.refresh.run).toBe('refuse');
    // Nothing that writes rows starts while the cache is cleared, a plan goes, or many rows are accepted or undone.
    for (const asked of ['plan', 'run', 'refresh'] as const) for (const rewriter of ['cacheClear', 'plan', 'accept', 'undo'] as const) expect(OVERLAP[asked][rewriter]).toBe('refuse');
    // A reviewer's next decision waits for an accept or an undo instead of being refused.
    expect(OVERLAP.decide).toEqual({ accept: 'wait', undo: 'wait' });
    // Deleting a project stops its run or refresh first.
    expect(OVERLAP.delete).toMatchObject({ run: 'cancel', refresh: 'cancel' });
    // An export reads: it goes beside anything.
    expect(OVERLAP.export).toEqual({});
  });

  it('names the widest reason first when several refuse', () => {
    expect(() => admit('run', ['refresh', 'plan', 'cacheClear'], 'Sheet')).toThrow('The cache is being cleared. Try again in a moment.');
    expect(() => admit('run', ['refresh', 'accept'], 'Sheet')).toThrow("This project's confident rows are being accepted. Try again in a moment.");
  });

  it('enter waits for what it must, cancels what it must, and looks again after waiting', async () => {
    const going = new Set<JobKind>(['run']);
    const log: string[] = [];
    const underWay: UnderWay = {
      kinds: () => [...going],
      settled: async (_id, kind) => {
        log.push(`waited ${kind}`);
        going.delete(kind);
        // Another accept began while this one ended: entering must wait for it too.
        if (!log.includes('second accept')) {
          log.push('second accept');
          going.add('accept');
        }
      },
      cancel: async (_id, kind) => {
        log.push(`cancelled ${kind}`);
        going.delete(kind);
      },
    };
    await enter('delete', 1, 'Sheet', underWay);
    expect(log).toEqual(['cancelled run']);
    going.add('accept');
    await enter('decide', 1, 'Sheet', underWay);
    expect(log).toEqual(['cancelled run', 'waited accept', 'second accept', 'waited accept']);
    expect(going.size).toBe(0);
  });
});
