// A cancel thrown in a worker is still a cancel on the page: Comlink carries `{ name, message }`
// across, so isCancelled answers the same on both sides and the user reads the worker's message.
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { isCancelled } from '../../core/cancel.ts';
import { compactionCancelled } from '../../core/compaction/summarizer.ts';
import { HookRefusedError } from '../../core/hooks/user-hooks.ts';
import { providerCancelled } from '../../llm/remote/errors.ts';
import { FakeWorker } from '../test-fake-worker.ts';
import { jobCancelled, SavedBeforeCancelError } from './protocol.ts';

const workers: FakeWorker[] = [];
afterEach(() => {
  for (const worker of workers.splice(0)) worker.terminate();
});

const thrown = {
  job: jobCancelled,
  compaction: compactionCancelled,
  provider: () => providerCancelled('OpenAI'),
  saved: () => new SavedBeforeCancelError('Cancel arrived after "a.jsonl" was saved.'),
  hook: () => new HookRefusedError('before-compact', 'not today'),
};
type Kind = keyof typeof thrown;

async function caughtOnPage(kind: Kind): Promise<unknown> {
  const worker = new FakeWorker({ fail: (which: Kind) => Promise.reject(thrown[which]()) });
  workers.push(worker);
  const remote = Comlink.wrap<{ fail(kind: Kind): Promise<void> }>(worker as unknown as Comlink.Endpoint);
  return remote.fail(kind).then(() => undefined, (error: unknown) => error);
}

describe('a cancel across the worker boundary', () => {
  it('is recognised on the page with the message the worker gave it', async () => {
    for (const kind of ['job', 'compaction', 'provider'] as const) {
      const error = await caughtOnPage(kind);
      expect(isCancelled(error)).toBe(true);
      expect((error as Error).message).toBe(thrown[kind]().message);
    }
  });

  it('is not claimed by a save that beat the cancel or a hook that refused', async () => {
    for (const kind of ['saved', 'hook'] as const) {
      const error = await caughtOnPage(kind);
      expect(isCancelled(error)).toBe(false);
      expect((error as Error).name).toBe(thrown[kind]().name);
    }
  });
});
