import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CancelledError, isCancelled } from '../cancel.ts';
import { runInThrowawayWorker, type ThrowawayRun, type ThrowawayWorker } from './throwaway-worker.ts';

type Reply = { loaded: true } | { value: number } | { error: string };

/** A worker the test answers by hand; it records what was posted and whether it was terminated. */
class ScriptedWorker implements ThrowawayWorker<string, Reply> {
  posted: string[] = [];
  terminated = false;
  onmessage: ((event: { data: Reply }) => void) | null = null;
  onerror: ThrowawayWorker<string, Reply>['onerror'] = null;
  postMessage(message: string): void {
    this.posted.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(data: Reply): void {
    this.onmessage?.({ data });
  }
}

class TimedOut extends Error {
  override name = 'TimedOut';
}

function run(extra: Partial<ThrowawayRun<Reply, number>> = {}): ThrowawayRun<Reply, number> {
  return {
    timeoutMs: 1000,
    timedOut: () => new TimedOut('no answer within 1,000 ms'),
    read: (reply, control) => {
      if ('loaded' in reply) control.restartTimer(200, () => new TimedOut('no answer within 200 ms of loading'));
      else if ('value' in reply) control.resolve(reply.value);
      else control.reject(new Error(reply.error));
    },
    failed: (event) => new Error(`worker failed: ${event.message}`),
    ...extra,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('runInThrowawayWorker', () => {
  it('posts the request, resolves with the answer and terminates the worker; a later reply is ignored', async () => {
    const worker = new ScriptedWorker();
    const pending = runInThrowawayWorker(() => worker, 'ask', run());
    expect(worker.posted).toEqual(['ask']);
    worker.reply({ value: 7 });
    await expect(pending).resolves.toBe(7);
    expect(worker.terminated).toBe(true);
    expect(worker.onmessage).toBeNull();
  });

  it('rejects with the time-limit error and terminates a worker that never answers', async () => {
    const worker = new ScriptedWorker();
    const pending = runInThrowawayWorker(() => worker, 'ask', run());
    const caught = pending.catch((error: unknown) => error);
    vi.advanceTimersByTime(999);
    expect(worker.terminated).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await caught).toEqual(new TimedOut('no answer within 1,000 ms'));
    expect(worker.terminated).toBe(true);
  });

  it('starts the limit again when a reply asks it to (a module that loaded, then its call)', async () => {
    const worker = new ScriptedWorker();
    const caught = runInThrowawayWorker(() => worker, 'ask', run()).catch((error: unknown) => error);
    vi.advanceTimersByTime(900);
    worker.reply({ loaded: true });
    vi.advanceTimersByTime(199);
    expect(worker.terminated).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await caught).toEqual(new TimedOut('no answer within 200 ms of loading'));
    expect(worker.terminated).toBe(true);
  });

  it('stops the worker at once on a cancel and rejects with a CancelledError; nothing it says after counts', async () => {
    const worker = new ScriptedWorker();
    const controller = new AbortController();
    const pending = runInThrowawayWorker(() => worker, 'ask', run({ signal: controller.signal }));
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(isCancelled(error)).toBe(true);
    expect(worker.terminated).toBe(true);
    worker.reply({ value: 1 });
    vi.advanceTimersByTime(5000);
  });

  it('never starts a worker for a job already cancelled, and uses the cancel error it is given', async () => {
    const spawn = vi.fn(() => new ScriptedWorker());
    const controller = new AbortController();
    controller.abort();
    await expect(runInThrowawayWorker(spawn, 'ask', run({ signal: controller.signal, cancelled: () => new CancelledError('Hook cancelled.') }))).rejects.toThrow('Hook cancelled.');
    expect(spawn).not.toHaveBeenCalled();
  });

  it('rejects with the failure the worker reported, or the error reading its reply threw, and terminates it', async () => {
    const crashed = new ScriptedWorker();
    const preventDefault = vi.fn();
    const crash = runInThrowawayWorker(() => crashed, 'ask', run());
    crashed.onerror?.({ message: 'SyntaxError', lineno: 3, preventDefault });
    await expect(crash).rejects.toThrow('worker failed: SyntaxError');
    expect(preventDefault).toHaveBeenCalled();
    expect(crashed.terminated).toBe(true);

    const unreadable = new ScriptedWorker();
    const read = runInThrowawayWorker(() => unreadable, 'ask', run({ read: () => { throw new Error('not a plan'); } }));
    unreadable.reply({ value: 1 });
    await expect(read).rejects.toThrow('not a plan');
    expect(unreadable.terminated).toBe(true);
  });
});
