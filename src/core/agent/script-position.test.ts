// The scripted model of a resumed live session continues its script where the stored session was
// (derived from the journal): the next request after a reload takes the next step, not the first.
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { echoSummarizer } from '../compaction/testing.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { scriptPosition } from './script-position.ts';
import { createScriptedModel, parseScript, type ScriptStep } from './scripted-model.ts';
import { createAgentSession } from './session.ts';
import { fakeTool, memoryFolder } from './testing.ts';
import type { TurnResult } from './types.ts';

const prompts = loadPrompts();

/** No step has a `match`: each call takes the next step, so a restart would show at once. */
const SCRIPT: ScriptStep[] = [
  { text: 'Reading a.txt.', toolCalls: [{ name: 'read', input: { path: 'a.txt' } }] },
  { text: 'It says alpha.' },
  { error: 'overflow' },
  { text: 'The second answer, after compacting.' },
  { text: 'A slow reply that is stopped before it ends.', delayMs: 5 },
  { thinking: 'Look again.', toolCalls: [{ name: 'read', input: { path: 'a.txt' } }, { name: 'read', input: { path: 'b.txt' } }] },
  { text: 'The third answer.' },
  { text: 'The last answer.' },
];
const TURNS = ['What is in a.txt?', 'And then?', 'Take your time', 'Look again', 'Anything else?'];
const STATUS: Array<TurnResult['status']> = ['done', 'done', 'stopped', 'done', 'done'];

/**
 * Runs `TURNS`; at `reloadAfter` the session and its model are made again from the stored journal
 * and, with `counted`, the number of model calls made so far (as the live session's row keeps it).
 */
async function run(reloadAfter?: number, counted = true) {
  let clock = 1_700_000_000_000;
  let controller = new AbortController();
  let calls = 0;
  const files = { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' };
  const open = (journal?: readonly Entry[]) => {
    const model = createScriptedModel(SCRIPT, {
      // The slow step is stopped while it streams (as Stop does).
      sleep: (ms) => {
        if (ms === 5) controller.abort();
        return Promise.resolve();
      },
      ...(journal ? { journal, ...(counted ? { calls } : {}) } : {}),
    });
    const session = createAgentSession({
      model, tools: [fakeTool('read', (input) => files[(input as { path: keyof typeof files }).path])], folder: memoryFolder(files), prompts,
      strategy: { strategy: 'pi', options: { keepRecentTokens: 1, reserveTokens: 256 } }, contextWindow: 200_000,
      counter: getEstimator('chars4'), summarizer: echoSummarizer(), now: () => (clock += 1000), ...(journal ? { journal } : {}),
      onEvent: (event) => {
        if (event.type === 'call') calls++;
      },
    });
    return { model, session };
  };
  let current = open();
  const statuses: string[] = [];
  for (const [i, text] of TURNS.entries()) {
    if (i === reloadAfter) current = open(structuredClone(current.session.entries) as Entry[]);
    controller = new AbortController();
    statuses.push((await current.session.send(text, controller.signal)).status);
  }
  return { entries: current.session.entries, statuses, remaining: current.model.remaining() };
}

describe('a scripted model resumed from a stored journal', () => {
  it('continues the script where the session was, whatever turn the reload came after', async () => {
    const whole = await run();
    expect(whole.statuses).toEqual(STATUS);
    expect(whole.remaining).toBe(0);
    expect(whole.entries.filter((entry) => entry.kind === 'compaction').map((entry) => entry.marker?.trigger)).toEqual(['overflow']);
    for (let reloadAfter = 1; reloadAfter < TURNS.length; reloadAfter++) {
      const resumed = await run(reloadAfter);
      expect(resumed.statuses, `reload after turn ${reloadAfter}`).toEqual(STATUS);
      expect(resumed.entries, `reload after turn ${reloadAfter}`).toEqual(whole.entries);
      expect(resumed.remaining).toBe(0);
    }
  });

  it('without the count of calls, reads its place from the journal alone (a stopped reply is counted once a later one is recorded)', async () => {
    const whole = await run();
    // After turn 3 the stopped reply is the journal's last call: only the count can tell it was made.
    for (const reloadAfter of [1, 2, 4]) {
      const resumed = await run(reloadAfter, false);
      expect(resumed.entries, `reload after turn ${reloadAfter}`).toEqual(whole.entries);
    }
  });

  it('counts the steps of calls the journal does not keep, and goes on numbering generated call ids', () => {
    const steps = parseScript([
      { match: 'list', toolCalls: [{ name: 'ls' }] },
      { match: 'list', text: 'Listed.' },
      { match: 'read', error: 'The server fell over.' },
      { match: 'read', text: 'Read it.' },
      { match: 'read', text: 'Read it again.' },
    ]).steps;
    const entry = (id: string, parentId: string | null, fields: Partial<Entry>): Entry => ({ id, index: 0, parentId, role: 'user', kind: 'message', blocks: [], sourceType: 't', line: 1, ...fields });
    const journal: Entry[] = [
      entry('u1', null, { blocks: [{ type: 'text', text: 'list it' }] }),
      entry('r1', 'u1', { role: 'assistant', blocks: [{ type: 'tool_call', callId: 'call_1', name: 'ls', input: {} }] }),
      entry('t1', 'r1', { role: 'tool', blocks: [{ type: 'tool_result', callId: 'call_1', content: [{ type: 'text', text: 'a' }], isError: false }] }),
      entry('r2', 't1', { role: 'assistant', blocks: [{ type: 'text', text: 'Listed.' }] }),
      // The failed call (step 3) left nothing in the journal; the retry of the turn is step 4.
      entry('u2', 'r2', { blocks: [{ type: 'text', text: 'read it' }] }),
      entry('u3', 'u2', { blocks: [{ type: 'text', text: 'read it, please' }] }),
      entry('r3', 'u3', { role: 'assistant', blocks: [{ type: 'text', text: 'Read it.' }] }),
    ];
    expect(scriptPosition(steps, journal)).toEqual({ used: [true, true, true, true, false], nextCallId: 2 });
    expect(scriptPosition(steps, [])).toEqual({ used: [false, false, false, false, false], nextCallId: 1 });
  });
});
