import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineClient, WorkerCrashedError } from './client.ts';
import type { EngineApi } from './engine/protocol.ts';
import { FakeWorker } from './test-fake-worker.ts';

const workers: FakeWorker[] = [];
afterEach(() => {
  for (const worker of workers.splice(0)) worker.terminate();
});

function client() {
  return createEngineClient(() => {
    const worker = new FakeWorker({
      // A job that never answers: what a page waits on when its worker dies.
      importDemo: () => new Promise(() => undefined),
      inspect: (id: string) => Promise.resolve({ id, worker: workers.length }),
      cancel: () => undefined,
    });
    workers.push(worker);
    return worker;
  });
}

describe('engine client', () => {
  it('fails every waiting job with a clear message when the worker throws, and the next job runs on a fresh worker', async () => {
    const engines = client();
    const crashes: string[] = [];
    engines.onCrash((error) => crashes.push(error.message));
    const a = engines.engine().importDemo({ jobId: 'a', fileName: 'demo.jsonl', origin: 'demo' }, Comlink.proxy(() => undefined));
    const b = engines.engine().importDemo({ jobId: 'b', fileName: 'demo.jsonl', origin: 'demo' }, Comlink.proxy(() => undefined));
    expect(engines.started).toBe(1);

    workers[0]!.throwUncaught('Uncaught RangeError: Maximum call stack size exceeded');
    for (const pending of [a, b]) {
      const error = await pending.then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(WorkerCrashedError);
      expect((error as Error).message).toMatch(/^The Foldlab engine .* stopped unexpectedly: Uncaught RangeError: Maximum call stack size exceeded\. .* restarted: run the job again\.$/);
    }
    expect(workers[0]!.terminated).toBe(true);
    expect(crashes).toHaveLength(1);

    const next = await (engines.engine() as unknown as Comlink.Remote<Pick<EngineApi, 'inspect'> & { inspect(id: string): Promise<{ id: string; worker: number }> }>).inspect('c');
    expect(next).toEqual({ id: 'c', worker: 2 });
    expect(engines.started).toBe(2);
  });

  it('treats a message the worker cannot read (messageerror) as a crash too', async () => {
    const engines = client();
    const pending = engines.engine().importDemo({ jobId: 'a', fileName: 'demo.jsonl', origin: 'demo' }, Comlink.proxy(() => undefined));
    workers[0]!.dispatchEvent(new Event('messageerror'));
    await expect(pending).rejects.toThrow(/could not be read/);
  });

  it('an error event from an old worker does not touch the new one', async () => {
    const engines = client();
    void engines.engine().importDemo({ jobId: 'a', fileName: 'x', origin: 'demo' }, Comlink.proxy(() => undefined)).catch(() => undefined);
    workers[0]!.throwUncaught('first');
    const fresh = engines.engine().importDemo({ jobId: 'b', fileName: 'x', origin: 'demo' }, Comlink.proxy(() => undefined));
    let settled = false;
    void fresh.then(() => (settled = true), () => (settled = true));
    workers[0]!.throwUncaught('late duplicate');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    expect(engines.started).toBe(2);
  });
});
