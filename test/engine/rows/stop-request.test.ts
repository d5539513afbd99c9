import { describe, expect, it } from 'vitest';
import { RedirectRefusedError, ServiceError } from '../../../electron/engine/api';
import { CallFailures, RunStop } from '../../../electron/engine/rows/stop-request';

const abortError = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
const unreachable = () => new ServiceError('network_error', 'Could not reach the service.');

describe('a run stop', () => {
  it('keeps the strongest reason asked while running, aborts its calls on a cancel, and ignores a stop after the end', () => {
    let running = true;
    const stop = new RunStop<'paused' | 'failed' | 'out_of_credits' | 'cancelled'>(() => running);
    expect(stop.request).toBeNull();
    stop.ask('failed', 'the service failed');
    stop.ask('paused', 'closing');
    expect(stop.request).toEqual({ status: 'failed', message: 'the service failed' });
    expect(stop.signal.aborted).toBe(false);
    stop.ask('cancelled', null);
    expect(stop.request).toEqual({ status: 'cancelled', message: null });
    expect(stop.signal.aborted).toBe(true);

    running = false;
    const ended = new RunStop<'paused'>(() => running);
    ended.ask('paused', 'too late');
    expect(ended.request).toBeNull();
  });

  it('abandons the calls in flight once a pause has waited its grace', async () => {
    const stop = new RunStop<'paused'>(() => true);
    stop.ask('paused', null);
    const never = new Promise<string>((resolve) => stop.signal.addEventListener('abort', () => resolve('abandoned')));
    expect(await stop.within(never, 10)).toBe('abandoned');
  });
});

describe('a run’s failed calls', () => {
  it('say a call abandoned on purpose is abandoned, and a cancelled one always', () => {
    const failures = new CallFailures('run');
    expect(failures.failed(abortError, true)).toEqual({ kind: 'abandoned' });
    expect(failures.failed(new ServiceError('cancelled', 'Cancelled.'), false)).toEqual({ kind: 'abandoned' });
    // An abort the run did not ask for is a failure of the call.
    expect(failures.failed(abortError, false)).toMatchObject({ kind: 'failed', stop: null });
  });

  it('stop the run on a failure every call would meet', () => {
    const failures = new CallFailures('run');
    expect(failures.failed(new ServiceError('payment_required', 'Out of credits.', { status: 402 }), false)).toEqual({
      kind: 'stop',
      stop: { status: 'out_of_credits', message: 'Out of credits.', kind: 'payment_required' },
    });
    expect(failures.failed(new ServiceError('forbidden', 'Not allowed.', { status: 403 }), false)).toEqual({ kind: 'stop', stop: { status: 'failed', message: 'Not allowed.', kind: 'forbidden' } });
    // A login refused for good is fatal; one the service failed (5xx) passes.
    expect(failures.failed(new ServiceError('login_failed', 'Bad secret.', { status: 401 }), false)).toMatchObject({ kind: 'stop' });
    expect(failures.failed(new ServiceError('login_failed', 'Try later.', { status: 503 }), false)).toEqual({ kind: 'passing', stop: null, turnedAway: { status: 'failed', message: 'Try later.', kind: 'server_error' } });
    // Five logins the service failed in a row: the service failing, not the credentials refused.
    for (let i = 0; i < 3; i++) failures.failed(new ServiceError('login_failed', 'Try later.', { status: 503 }), false);
    expect(failures.failed(new ServiceError('login_failed', 'Try later.', { status: 503 }), false)).toEqual({
      kind: 'passing',
      stop: { status: 'failed', message: 'Try later.', kind: 'server_error' },
      turnedAway: { status: 'failed', message: 'Try later.', kind: 'server_error' },
    });
    // Every call goes where the profile points, and would be sent on to the same other host.
    const moved = new RedirectRefusedError(307, 'http://127.0.0.1:1/api/find', 'a redirect to http://elsewhere.');
    expect(failures.failed(moved, false)).toEqual({ kind: 'stop', stop: { status: 'failed', message: moved.message, kind: 'unexpected_status' } });
    expect(failures.failed(new ServiceError('unexpected_status', 'HTTP 409.', { status: 409 }), false)).toMatchObject({ kind: 'failed', stop: null });
  });

  it('stop the run after five tokens in a row turned away for a passing reason, the streak ended by an answer', () => {
    const failures = new CallFailures('run');
    const refused = () => failures.failed(new ServiceError('unauthorized', 'Token revoked.', { status: 401 }), false);
    const turnedAway = { status: 'failed', message: 'Token revoked.', kind: 'unauthorized' };
    for (let i = 0; i < 4; i++) expect(refused()).toEqual({ kind: 'passing', stop: null, turnedAway });
    failures.answered();
    for (let i = 0; i < 4; i++) expect(refused()).toEqual({ kind: 'passing', stop: null, turnedAway });
    expect(refused()).toEqual({ kind: 'passing', stop: turnedAway, turnedAway });
  });

  it('fail the call, and say the service is out of reach after three calls in a row could not reach it', () => {
    const failures = new CallFailures('refresh');
    for (let i = 1; i < 3; i++) expect(failures.failed(unreachable(), false)).toEqual({ kind: 'failed', message: 'Could not reach the service.', stop: null });
    failures.answered();
    for (let i = 1; i < 3; i++) {
      expect(failures.failed(unreachable(), false)).toMatchObject({ stop: null });
      // Another kind of failure between them neither counts nor ends the streak.
      expect(failures.failed(new ServiceError('server_error', 'Internal error.', { status: 500 }), false)).toMatchObject({ kind: 'failed', stop: null });
    }
    expect(failures.failed(unreachable(), false)).toEqual({
      kind: 'failed',
      message: 'Could not reach the service.',
      stop: {
        status: 'failed',
        message: 'Could not reach the service. The refresh stopped after 3 calls in a row failed to reach the service; resume once the connection is back.',
        kind: 'network_error',
      },
    });
  });
});
