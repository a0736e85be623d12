// The offline summarizer on what a long refactoring session showed (public/samples/pi/
// before-compaction.jsonl): choices put as design statements are Key Decisions, and a package's
// failed type check is no longer "still failing" once the monorepo's root check passes.
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries } from '../compaction/testing.ts';
import { extractDecisions, extractFacts } from './extract.ts';

describe('decisions stated as design', () => {
  it('takes "should only …, not", "no need for", the biggest win, a recommendation, "better UX would be:" with its list, "… instead"', () => {
    const text = [
      "`unsubscribeAll()` should only disconnect from the agent, not clear the user's listeners.",
      "I'm thinking leave it since it's the old code we're keeping for reference.",
      'No need for separate hide methods or tracking selector instances.',
      'The biggest win would be #1 (consolidating the two render methods).',
      '**Recommendation:** Option A for now (simple and safe).',
      'Better UX would be:\n1. If streaming, show the bash result in the pending area\n2. On `agent_end`, move it to the chat',
      'Remove `agent_end` flush - flush on `prompt()` instead',
      'If you need further assistance, I recommend contacting a human agent.',
      'Let me read the file.',
    ].join('\n');
    const decisions = extractDecisions(text);
    expect(decisions).toHaveLength(7);
    expect(decisions[5]).toContain('show the bash result in the pending area');
  });
});

describe('a monorepo check', () => {
  it("marks a package's failed type check resolved when the root check passes later", () => {
    const entries = linkEntries(makeEntries([
      { user: 'fix the types' },
      { assistant: '', calls: [{ id: 'a', name: 'bash', input: { command: 'cd /w/mono/packages/app && npx tsgo --noEmit 2>&1 | head -80' } }] },
      { tool: "src/a.ts(3,1): error TS2304: Cannot find name 'x'.", callId: 'a', error: true },
      { assistant: '', calls: [{ id: 'b', name: 'bash', input: { command: 'cd /w/mono && npm run check 2>&1 | tail -5' } }] },
      { tool: 'Checked 238 files in 120ms. No fixes applied.', callId: 'b' },
    ]));
    expect(extractFacts(entries).errors.map((error) => error.resolved)).toEqual([true]);
  });
});
