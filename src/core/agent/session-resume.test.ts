// A live session resumed from its stored journal (after a reload) sends the model exactly what the
// same session would have sent had it never stopped: the compaction record carries the context it
// assembled (masked, cleared and compressed rewrites included) and the state the next one reads.
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { echoSummarizer } from '../compaction/testing.ts';
import type { StrategyId } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { createAgentSession } from './session.ts';
import { fakeModel, fakeTool, memoryFolder, type FakeStep } from './testing.ts';
import type { AgentEvent, ModelRequest } from './types.ts';

const prompts = loadPrompts();
const signal = () => new AbortController().signal;

/** A grep whose 30 matching lines the layered history keeps 5 of; masking and clearing replace them. */
const LINES = Array.from({ length: 30 }, (_, i) => `src/file${i}.ts:${i + 1}: match ${i} ${'x'.repeat(40)}`).join('\n');
/** A turn: two grep calls (ids of their own, as a provider gives), then the answer. */
const turn = (n: number): FakeStep[] => [
  { toolCalls: [{ name: 'grep', input: { pattern: 'match' }, id: `call-${n}-1` }] },
  { toolCalls: [{ name: 'grep', input: { pattern: 'match' }, id: `call-${n}-2` }] },
  { text: 'Found them.' },
];

interface Config {
  strategy: StrategyId;
  options: Record<string, unknown>;
  contextWindow: number;
}

/** A session whose clock and model steps continue from `from` (the part of the run before a reload). */
function open(config: Config, steps: FakeStep[], clock: { t: number }, journal?: readonly Entry[]) {
  const model = fakeModel(steps);
  const events: AgentEvent[] = [];
  const session = createAgentSession({
    model, tools: [fakeTool('grep', () => LINES)], folder: memoryFolder({ 'a.txt': 'alpha\n' }), prompts,
    strategy: { strategy: config.strategy, options: config.options }, contextWindow: config.contextWindow,
    counter: getEstimator('chars4'), summarizer: echoSummarizer(), now: () => (clock.t += 1000),
    onEvent: (event) => events.push(event), ...(journal ? { journal } : {}),
  });
  return { session, model, events };
}

/** What the model is sent, without the request's signal. */
const sent = (requests: readonly ModelRequest[]) => requests.map(({ system, tools, context }) => ({ system, tools, context }));

/** Four turns of two grep calls each; `reloadAfter` turns run in one session, the rest in a resumed one. */
async function run(config: Config, reloadAfter?: number) {
  const texts = ['find the matches', 'again', 'once more', 'and the last time'];
  const steps = (from: number) => texts.slice(from).flatMap((_, i) => turn(from + i));
  const clock = { t: 1_700_000_000_000 };
  let current = open(config, steps(0), clock);
  const requests: ModelRequest[] = [];
  const events: AgentEvent[] = [];
  for (const [i, text] of texts.entries()) {
    if (i === reloadAfter) {
      // What IndexedDB gives back after a reload: the entries as stored, new objects.
      const stored = structuredClone(current.session.entries) as Entry[];
      requests.push(...current.model.requests);
      events.push(...current.events);
      current = open(config, steps(i), clock, stored);
    }
    expect((await current.session.send(text, signal())).status).toBe('done');
  }
  requests.push(...current.model.requests);
  events.push(...current.events);
  return { requests, compactions: events.filter((event) => event.type === 'compaction'), entries: current.session.entries };
}

const CONFIGS: Array<[string, Config]> = [
  ['observation-masking', { strategy: 'observation-masking', options: { keepTurns: 1 }, contextWindow: 200_000 }],
  ['tool-result-clearing', { strategy: 'tool-result-clearing', options: { triggerTokens: 1200, keepToolUses: 1 }, contextWindow: 200_000 }],
  ['layered', { strategy: 'layered', options: { keepTurns: 1, minMessages: 3 }, contextWindow: 1500 }],
  ['pi', { strategy: 'pi', options: { keepRecentTokens: 300, reserveTokens: 256 }, contextWindow: 1600 }],
];

describe('a live session resumed from its stored journal', () => {
  it.each(CONFIGS)('%s: every request after the reload is the one the uninterrupted session sent', async (_name, config) => {
    const whole = await run(config);
    // The scenario compacts before the reload and again after it.
    expect(whole.compactions.length).toBeGreaterThanOrEqual(2);
    const firstAt = whole.compactions[0]!.atCall;
    expect(firstAt).toBeLessThan(6);
    for (const reloadAfter of [2, 3]) {
      const resumed = await run(config, reloadAfter);
      expect(resumed.requests).toHaveLength(whole.requests.length);
      expect(sent(resumed.requests)).toEqual(sent(whole.requests));
      expect(resumed.entries).toEqual(whole.entries);
    }
  });

  it('records only what each compaction changed: a masked output is stored once, not again with every later compaction', async () => {
    const whole = await run(CONFIGS[0]![1]);
    const records = whole.entries.filter((entry) => entry.marker?.context);
    expect(records.length).toBeGreaterThanOrEqual(4);
    const put = records.flatMap((entry) => entry.marker!.context!.edits.flatMap((edit) => ('put' in edit && 'entry' in edit.put ? [edit.put.entry.id] : [])));
    expect(put.length).toBeGreaterThan(0);
    expect(new Set(put).size).toBe(put.length);
  });

  it('reads a compaction entry that keeps no context (an older session) back as pi does: its summary, then the entries from firstKeptEntryId', async () => {
    const config = CONFIGS.find(([name]) => name === 'pi')![1];
    const clock = { t: 1_700_000_000_000 };
    const first = open(config, [...turn(0), ...turn(1)], clock);
    for (const text of ['find the matches', 'again']) await first.session.send(text, signal());
    const stored = (structuredClone(first.session.entries) as Entry[]).map((entry) => {
      if (!entry.marker?.context) return entry;
      const { context: _context, ...marker } = entry.marker;
      return { ...entry, marker };
    });
    const record = stored.findLast((entry) => entry.kind === 'compaction')!;
    expect(record.marker?.firstKeptEntryId).toBeDefined();
    const resumed = open(config, turn(2), clock, stored);
    expect((await resumed.session.send('once more', signal())).status).toBe('done');
    const [summary, kept] = resumed.model.requests[0]!.context;
    expect([summary?.origin, summary?.entry.id]).toEqual(['summary', record.id]);
    expect(kept?.entry.id).toBe(record.marker?.firstKeptEntryId);
  });
});
