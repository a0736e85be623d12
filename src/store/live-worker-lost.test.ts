/**
 * A live session on the local model whose worker dies, in Node, as the page drives it
 * (live-actions.ts): the live worker is a fake Worker serving a real LiveHost over a
 * MessageChannel, the engine worker a real Engine over a fake model. The dead worker cannot
 * release its port to the engine, so the page does: no port is left served, the session is
 * stopped with the reason, and it opens again on a fresh worker and answers.
 */
import 'fake-indexeddb/auto';
import type { ChatCompletionChunk } from '@mlc-ai/web-llm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LiveSessionConfig } from '../db/live-session-row.ts';
import type { SharedModelSource } from '../llm/webllm/webllm-shared.ts';
import type { WebLLMEngine } from '../llm/webllm/webllm.ts';
import { useLiveStore } from './live-store.ts';
import { Engine } from '../worker/engine/engine.ts';
import { FakeWorker } from '../worker/test-fake-worker.ts';
import { createFileListFolder } from '../core/agent/tools/folder-access.ts';
import type { PickedFolder } from './live-folder.ts';
import { LiveHost } from '../worker/live/live-host.ts';

const MODEL = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';

const fake = vi.hoisted(() => ({
  engine: undefined as unknown as import('../worker/engine/engine.ts').Engine,
  /** Generations the engine worker's model was asked to stop. */
  interrupts: 0,
}));

// The page's engine worker is the Engine itself (its calls made directly, as Comlink would).
vi.mock('../worker/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../worker/client.ts')>()),
  engine: () => ({
    serveLocalModel: async (port: MessagePort, key?: string) => fake.engine.serveLocalModel(port, key),
    releaseLocalModelPorts: (keys: string[]) => fake.engine.releaseLocalModelPorts(keys),
  }),
  engineClient: { onCrash: () => () => undefined, post: () => undefined, started: 1 },
}));

/** The live worker: a real LiveHost behind a MessageChannel; when it is ended, the dead worker's LiveHost and its port to the engine stay as they were. */
class FakeLiveWorker extends FakeWorker {
  static made: FakeLiveWorker[] = [];

  constructor() {
    super(new LiveHost(), { keepServedEnd: true });
    FakeLiveWorker.made.push(this);
  }
}

const chunk = (content: string | undefined, finish: 'stop' | null = null): ChatCompletionChunk => ({
  id: 'c', created: 0, model: MODEL, object: 'chat.completion.chunk', choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
});

/** Answers one sentence; a request ending in "story" streams until it is interrupted. */
function fakeModel(): SharedModelSource {
  let interrupted = false;
  let wake: (() => void) | undefined;
  const engine: WebLLMEngine = {
    chat: {
      completions: {
        create: async (request) => {
          const last = String(request.messages.at(-1)?.content ?? '');
          interrupted = false;
          return (async function* () {
            if (!/story$/.test(last)) {
              yield chunk('A small folder.');
            } else {
              yield chunk('Once upon a time');
              while (!interrupted) await new Promise<void>((resolve) => { wake = resolve; });
            }
            yield chunk(undefined, 'stop');
          })();
        },
      },
    },
    interruptGenerate: () => {
      interrupted = true;
      fake.interrupts++;
      wake?.();
    },
    unload: async () => undefined,
  };
  const model = { load: async () => undefined, withEngine: <T>(task: (e: WebLLMEngine) => Promise<T>) => task(engine) };
  return () => model;
}

const config: LiveSessionConfig = { model: { kind: 'webllm', modelId: MODEL }, strategy: 'pi', options: {}, contextWindow: 200_000, counter: 'chars4', gitignore: true };

function picked(): PickedFolder {
  const files = [Object.assign(new File(['# A folder\n'], 'readme.md', { lastModified: 1_700_000_000_000 }), { webkitRelativePath: 'f/readme.md' })];
  return { folder: createFileListFolder(files), files };
}

let actions: typeof import('./live-actions.ts');
let db: typeof import('../db/db.ts').db;

beforeAll(async () => {
  vi.stubGlobal('Worker', FakeLiveWorker);
  // The streamed pieces reach the store once per frame: a frame is the next task here.
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => setTimeout(callback));
  vi.stubGlobal('cancelAnimationFrame', (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle));
  db = (await import('../db/db.ts')).db;
  fake.engine = new Engine(db, { localModel: fakeModel() });
  actions = await import('./live-actions.ts');
});

afterAll(async () => {
  for (const worker of FakeLiveWorker.made) worker.terminate();
  vi.unstubAllGlobals();
  await db.delete();
});

const ports = () => fake.engine.localModelPorts.size;
const runtime = (id: string) => useLiveStore.getState().runtimes[id];
const assistantTexts = async (id: string) => (await db.entries.where('conversationId').equals(id).toArray()).filter((e) => e.role === 'assistant').map((e) => JSON.stringify(e));

describe('the live worker dies', () => {
  it('releases its port in the engine, stops the session with the reason, and the session opens again on a fresh worker', async () => {
    const id = await actions.startLiveSession({ title: 'Worker lost', picked: picked(), config });
    await actions.sendLive(id, 'What is here?');
    expect(await assistantTexts(id)).toHaveLength(1);
    expect(ports()).toBe(1);
    expect(FakeLiveWorker.made).toHaveLength(1);

    FakeLiveWorker.made[0]!.throwUncaught('Uncaught RangeError: Array buffer allocation failed');
    expect(FakeLiveWorker.made[0]!.terminated).toBe(true);
    expect(actions.isAttached(id)).toBe(false);
    expect(runtime(id)?.error).toBe(
      "The live session's worker stopped: Uncaught RangeError: Array buffer allocation failed. Its journal is kept (a reply still being written when it stopped is not). Open the session again to continue.",
    );
    await expect.poll(ports).toBe(0);

    // Opened again: a fresh worker, a new port, the stored journal continued.
    await actions.resumeLiveSession(id, picked());
    expect(FakeLiveWorker.made).toHaveLength(2);
    expect(actions.isAttached(id)).toBe(true);
    expect(runtime(id)?.error).toBeUndefined();
    expect(ports()).toBe(1);
    await actions.sendLive(id, 'And now?');
    expect(runtime(id)?.error).toBeUndefined();
    expect(await assistantTexts(id)).toHaveLength(2);

    await actions.closeLiveSession(id);
    await expect.poll(ports).toBe(0);
  });

  it('a reply being generated when the worker dies is stopped in the engine, and the waiting send ends', async () => {
    const id = await actions.startLiveSession({ title: 'Lost mid-reply', picked: picked(), config });
    const worker = FakeLiveWorker.made.at(-1)!;
    const interrupts = fake.interrupts;
    const sent = actions.sendLive(id, 'Tell me a long story');
    await expect.poll(() => runtime(id)?.streaming ?? '').toContain('Once upon a time');

    worker.throwUncaught('Uncaught Error: out of memory');
    await sent;
    expect(fake.interrupts).toBe(interrupts + 1);
    await expect.poll(ports).toBe(0);
    expect(runtime(id)).toMatchObject({ busy: false, phase: 'idle', streaming: '' });
    expect(runtime(id)?.error).toMatch(/^The live session's worker stopped: Uncaught Error: out of memory\. .* Open the session again to continue\.$/);
    expect(actions.isAttached(id)).toBe(false);

    // The request stays in the journal (its reply was never written); the session goes on after it.
    await actions.resumeLiveSession(id, picked());
    await actions.sendLive(id, 'Hello again');
    expect(runtime(id)?.error).toBeUndefined();
    expect(await assistantTexts(id)).toHaveLength(1);
    await actions.closeLiveSession(id);
    await expect.poll(ports).toBe(0);
  });
});
