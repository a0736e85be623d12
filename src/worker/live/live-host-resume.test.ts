/**
 * A live session continued in a new worker host after a reload: the host is given the stored
 * journal and the number of model calls the session's row counted, and a scripted model goes on
 * with the step after the last one it played (not the script's first).
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/agent/types.ts';
import type { Entry } from '../../core/journal/entry.ts';
import type { LiveSessionConfig } from '../../db/live-session-row.ts';
import { LiveHost, type LiveFolderSource } from './live-host.ts';

const SCRIPT = {
  steps: [
    { text: 'Listing it.', toolCalls: [{ name: 'ls', input: { path: '.' } }] },
    { text: 'The first answer.' },
    { text: 'A reply the user stops.', delayMs: 1 },
    { text: 'The second answer.' },
  ],
};
const config: LiveSessionConfig = { model: { kind: 'scripted', name: 'resume.json', script: SCRIPT }, strategy: 'pi', options: {}, contextWindow: 200_000, counter: 'chars4', gitignore: false };
const folder = (): LiveFolderSource => ({ kind: 'files', files: [{ path: 'repo/a.txt', file: new File(['alpha\n'], 'a.txt', { lastModified: 1 }) }] });

/** A host with the session started on `journal`, collecting its entries and counting its calls (as the page does). */
async function host(journal: Entry[], modelCalls?: number) {
  const live = new LiveHost();
  const entries = [...journal];
  const counted = { calls: modelCalls ?? 0 };
  let onDelta: (() => void) | undefined;
  const onEvent = (event: AgentEvent) => {
    if (event.type === 'entry') entries.push(event.entry);
    if (event.type === 'call') counted.calls++;
    if (event.type === 'delta') onDelta?.();
  };
  await live.start({ id: 's', folder: folder(), config, model: { kind: 'scripted', script: SCRIPT }, journal, ...(modelCalls !== undefined ? { modelCalls } : {}) }, onEvent);
  /** Resolves at the next streamed piece. */
  const streaming = () => new Promise<void>((resolve) => {
    onDelta = () => {
      onDelta = undefined;
      resolve();
    };
  });
  return { live, entries, counted, streaming };
}

const lastReply = (entries: readonly Entry[]) => entries.filter((entry) => entry.role === 'assistant').at(-1)?.blocks;

describe('a live session resumed in a new host', () => {
  it('continues the scripted model after the steps played, a stopped one included', async () => {
    const first = await host([]);
    expect((await first.live.send('s', 'What is here?')).status).toBe('done');
    expect(lastReply(first.entries)).toEqual([{ type: 'text', text: 'The first answer.' }]);
    // Stopped while it streams: the journal keeps no reply, only the row's count of calls knows it was made.
    const streaming = first.streaming();
    const stopped = first.live.send('s', 'Tell me more');
    await streaming;
    first.live.stop('s');
    expect((await stopped).status).toBe('stopped');
    expect(first.counted.calls).toBe(3);

    const resumed = await host(structuredClone(first.entries), first.counted.calls);
    expect((await resumed.live.send('s', 'And now?')).status).toBe('done');
    expect(lastReply(resumed.entries)).toEqual([{ type: 'text', text: 'The second answer.' }]);
  });
});
