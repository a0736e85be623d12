/**
 * Live sessions on the local model and the engine worker's ports, in Node: the page's part
 * (connectLiveModel) opens a channel to the engine worker (Engine.serveLocalModel over a fake
 * model), the session's worker (LiveHost) holds the other end. Closing a session, opening it
 * again, and a failed load each release both ends: the engine worker keeps only the ports of the
 * sessions still open.
 */
import 'fake-indexeddb/auto';
import type { ChatCompletionChunk } from '@mlc-ai/web-llm';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveSessionConfig } from '../../db/live-session-row.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import type { SharedLocalModel, SharedModelSource } from '../../llm/webllm/webllm-shared.ts';
import type { WebLLMEngine } from '../../llm/webllm/webllm.ts';
import { Engine } from '../../worker/engine/engine.ts';
import { LiveHost, type LiveFolderSource } from '../../worker/live/live-host.ts';
import { connectLiveModel, type ConnectedModel } from '../../store/live-local-model.ts';

const MODEL = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
const config: LiveSessionConfig = { model: { kind: 'webllm', modelId: MODEL }, strategy: 'pi', options: {}, contextWindow: 200_000, counter: 'chars4', gitignore: true };
const folder: LiveFolderSource = { kind: 'files', files: [{ path: 'f/readme.md', file: new File(['# A folder\n'], 'readme.md', { lastModified: 1_700_000_000_000 }) }] };

const chunk = (content: string | undefined, finish: 'stop' | null = null): ChatCompletionChunk => ({
  id: 'c', created: 0, model: MODEL, object: 'chat.completion.chunk', choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
});

const fakeEngine: WebLLMEngine = {
  chat: {
    completions: {
      create: async () => (async function* () {
        yield chunk('A small folder.');
        yield chunk(undefined, 'stop');
      })(),
    },
  },
  interruptGenerate: () => undefined,
  unload: async () => undefined,
};

/** The engine worker's one model: loads (or fails to), then answers every chat with one sentence. */
function fakeModel(state: { failLoad: boolean }): SharedModelSource {
  const model: SharedLocalModel = {
    load: async () => {
      if (state.failLoad) throw new Error('WebGPU device lost while loading.');
    },
    withEngine: (task) => task(fakeEngine),
  };
  return () => model;
}

let db: FoldlabDatabase | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

function setup() {
  db = new FoldlabDatabase(`ports-${Math.random()}`);
  const state = { failLoad: false };
  const engine = new Engine(db, { localModel: fakeModel(state) });
  /** Both ends of every channel the page opened, closed once either end lets go (Node's 'close' event). */
  const closed: boolean[] = [];
  const serve = async (port: MessagePort, key: string) => {
    const index = closed.push(false) - 1;
    port.addEventListener('close', () => { closed[index] = true; });
    engine.serveLocalModel(port, key);
  };
  const connect = (): Promise<ConnectedModel> => connectLiveModel({ kind: 'webllm', modelId: MODEL }, undefined, serve);
  return { engine, state, closed, connect, host: new LiveHost() };
}

describe('ports to the local model', () => {
  it('closing sessions releases their ports in both workers; the open one still answers', async () => {
    const { engine, closed, connect, host } = setup();
    for (let i = 0; i < 5; i++) {
      const model = await connect();
      await host.start({ id: `s${i}`, folder, config, model, journal: [] }, () => undefined);
      expect(engine.localModelPorts.size).toBe(1);
      host.close(`s${i}`);
      await expect.poll(() => engine.localModelPorts.size).toBe(0);
    }
    await expect.poll(() => closed.every(Boolean)).toBe(true);
    expect(closed).toHaveLength(5);
    expect(host.size).toBe(0);

    const model = await connect();
    await host.start({ id: 'open', folder, config, model, journal: [] }, () => undefined);
    expect((await host.send('open', 'What is here?')).status).toBe('done');
    expect(engine.localModelPorts.size).toBe(1);
  });

  it('opening a session again releases the port of its earlier copy', async () => {
    const { engine, closed, connect, host } = setup();
    for (let i = 0; i < 4; i++) {
      const model = await connect();
      await host.start({ id: 'same', folder, config, model, journal: [] }, () => undefined);
    }
    await expect.poll(() => engine.localModelPorts.size).toBe(1);
    await expect.poll(() => closed.filter(Boolean).length).toBe(3);
    expect((await host.send('same', 'Still there?')).status).toBe('done');
  });

  it('a failed load releases the port it opened', async () => {
    const { engine, state, closed, connect } = setup();
    state.failLoad = true;
    for (let i = 0; i < 3; i++) await expect(connect()).rejects.toThrow(/device lost/i);
    await expect.poll(() => engine.localModelPorts.size).toBe(0);
    await expect.poll(() => closed.every(Boolean)).toBe(true);
    expect(closed).toHaveLength(3);
  });

  it('the page releases by key the ports of a session worker that died; the others still answer', async () => {
    const { engine, closed, connect, host } = setup();
    const lost = await connect();
    const kept = await connect();
    // The worker holding `lost` died: its LiveHost never releases it, so the page does, by key.
    await new LiveHost().start({ id: 'lost', folder, config, model: lost, journal: [] }, () => undefined);
    await host.start({ id: 'kept', folder, config, model: kept, journal: [] }, () => undefined);
    expect(engine.localModelPorts.size).toBe(2);
    await engine.releaseLocalModelPorts([lost.portKey!, 'port-of-another-engine']);
    expect(engine.localModelPorts.size).toBe(1);
    await expect.poll(() => closed.filter(Boolean).length).toBe(1);
    // Released twice (the worker died after its session had let go): nothing more happens.
    await engine.releaseLocalModelPorts([lost.portKey!]);
    expect((await host.send('kept', 'Still there?')).status).toBe('done');
    expect(engine.localModelPorts.size).toBe(1);
  });

  it('a session that cannot start releases the port it was given', async () => {
    const { engine, connect, host } = setup();
    const model = await connect();
    await expect(host.start({ id: 's', folder: { kind: 'files' } as unknown as LiveFolderSource, config, model, journal: [] }, () => undefined)).rejects.toThrow();
    await expect.poll(() => engine.localModelPorts.size).toBe(0);
  });
});
