// Invariants of the loop whatever the model replies (text, tool calls with repeated, empty or
// unknown ids and names, the loop's own tools, overflows, failures), under compacting strategies
// with small windows: every request starts with the system prompt and pairs every tool call with
// its result; the journal links every call to its result and reports each entry once, in order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import type { ContextEntry } from '../compaction/types.ts';
import { fakeSession, type FakeStep } from './testing.ts';
import { renderSystemPrompt } from './system-prompt.ts';

const prompts = loadPrompts();

const callArb = fc.record({
  name: fc.constantFrom('read', 'query_history', 'summarize_context', 'missing_tool'),
  id: fc.constantFrom(undefined, '', 'dup', 'call-x'),
  input: fc.constantFrom({ path: 'big.txt' }, { path: 'a.txt' }, { query: 'xxxx' }, 'not json', {}),
});

const stepArb: fc.Arbitrary<FakeStep> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ text: fc.string({ maxLength: 200 }), toolCalls: fc.array(callArb, { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.constant<FakeStep>({ error: 'overflow' }) },
  { weight: 1, arbitrary: fc.constant<FakeStep>({ error: 'provider unavailable' }) },
);

const configArb = fc.constantFrom(
  { strategy: 'pi' as const, options: { reserveTokens: 256, keepRecentTokens: 100 } },
  { strategy: 'layered' as const, options: { keepTurns: 1, minMessages: 3, triggerRatio: 0.3 } },
  { strategy: 'observation-masking' as const, options: {} },
);

function checkPairs(context: readonly ContextEntry[]): void {
  const called: string[] = [];
  const answered = new Set<string>();
  for (const item of context) {
    for (const block of item.entry.blocks) {
      if (block.type === 'tool_call') {
        expect(called).not.toContain(block.callId);
        called.push(block.callId);
      } else if (block.type === 'tool_result') {
        expect(called, `result ${block.callId} without an earlier call`).toContain(block.callId);
        answered.add(block.callId);
      }
    }
  }
  for (const id of called) expect(answered.has(id), `call ${id} without a result`).toBe(true);
}

describe('the live loop, whatever the model replies', () => {
  it('keeps the system prompt first and every tool call paired with its result', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(stepArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }), configArb, async (turns, strategy) => {
        const steps = turns.flatMap((turn) => [...turn, { text: 'Finished.' }]);
        const { session, model, events } = fakeSession(steps, { prompts, strategy, contextWindow: 1500, maxCallsPerTurn: 20 });
        for (let t = 0; t < turns.length; t++) {
          const result = await session.send(`turn ${t}`, new AbortController().signal);
          expect(['done', 'failed']).toContain(result.status);
        }
        const system = renderSystemPrompt(prompts, { name: 'project', snapshot: false });
        for (const request of model.requests) {
          expect(request.system).toBe(system);
          checkPairs(request.context);
        }
        const entries = session.entries;
        expect(events.flatMap((event) => (event.type === 'entry' ? [event.entry] : []))).toEqual(entries);
        const byId = new Map(entries.map((entry) => [entry.id, entry]));
        expect(byId.size).toBe(entries.length);
        for (const entry of entries) {
          for (const block of entry.blocks) {
            if (block.type !== 'tool_call') continue;
            const result = byId.get(block.resultEntryId ?? '')?.blocks[0];
            expect(result?.type === 'tool_result' && result.callId).toBe(block.callId);
            expect(result?.type === 'tool_result' && result.callEntryId).toBe(entry.id);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
