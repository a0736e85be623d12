/**
 * A live reply that waits on a 429 says so, as the Compact job does: the host turns the retry's
 * wait into a `wait` event, the Live tab's state holds it while the reply waits and drops it once
 * the reply streams or the turn ends.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent, ModelWait } from '../../core/agent/types.ts';
import type { LiveSessionConfig } from '../../db/live-session-row.ts';
import { openAIStream } from '../../llm/remote/test-server.ts';
import { useFakeServer as fakeServerForTests } from '../../llm/remote/test-fixtures.ts';
import { applyLiveEvent } from '../../store/live-events.ts';
import { IDLE_RUNTIME, type LiveRuntime } from '../../store/live-store.ts';
import { LiveHost } from '../../worker/live/live-host.ts';

const server = fakeServerForTests();
const config: LiveSessionConfig = { model: { kind: 'settings', label: 'custom · qwen3:8b' }, strategy: 'pi', options: {}, contextWindow: 200_000, counter: 'chars4', gitignore: true };
const folder = { kind: 'files' as const, files: [{ path: 'f/readme.md', file: new File(['# Notes'], 'readme.md') }] };

describe('a live reply waiting before a retry', () => {
  it('reports the 429 wait as an event the Live tab shows until the reply streams', async () => {
    server.reply({ status: 429, json: { error: { message: 'slow down' } }, headers: { 'retry-after': '0' } }, { events: openAIStream(['Done.']) });
    const host = new LiveHost();
    const events: AgentEvent[] = [];
    const remote = { presetId: 'custom' as const, api: 'openai' as const, baseUrl: `${server.url}/v1`, model: 'qwen3:8b' };
    await host.start({ id: 's', folder, config, model: { kind: 'remote', config: remote }, journal: [] }, (event) => events.push(event));
    expect((await host.send('s', 'hi')).status).toBe('done');
    const waits = events.flatMap((event) => (event.type === 'wait' ? [event.wait] : []));
    expect(waits).toEqual([{ reason: 'rate-limit', attempt: 1, until: expect.any(Number) as number }]);

    // The state the Live tab draws: the wait is shown between the wait event and the first streamed text.
    const states: LiveRuntime[] = [];
    events.reduce<LiveRuntime>((state, event) => {
      const next = { ...state, ...applyLiveEvent(state, event, 0) };
      states.push(next);
      return next;
    }, IDLE_RUNTIME);
    const at = events.findIndex((event) => event.type === 'wait');
    expect(states[at]!.wait).toEqual(waits[0]);
    expect(states[at]!.busy && states[at]!.phase).toBe('calling');
    const streamed = events.findIndex((event, i) => i > at && event.type === 'delta');
    expect(states[streamed]!.wait).toBeUndefined();
    expect(states.at(-1)!.wait).toBeUndefined();
  });

  it('clears the wait when the turn leaves the model call (stopped, failed or done)', () => {
    const wait: ModelWait = { reason: 'network', until: 5, attempt: 1 };
    const waiting = { ...IDLE_RUNTIME, busy: true, phase: 'calling' as const, ...applyLiveEvent(IDLE_RUNTIME, { type: 'wait', wait }, 0) };
    expect(waiting.wait).toEqual(wait);
    expect(applyLiveEvent(waiting, { type: 'state', busy: false, phase: 'idle' }, 0)).toMatchObject({ wait: undefined });
    expect(applyLiveEvent(waiting, { type: 'call', call: 0, contextTokens: 10, model: 'm' }, 0)).toMatchObject({ wait: undefined });
  });
});
