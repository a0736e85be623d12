import { describe, expect, it } from 'vitest';
import { entryText, type Entry } from '../journal/entry.ts';
import type { Probe } from '../probes/types.ts';
import { ProbeChecker, type ContextPart } from './scoring.ts';

let n = 0;
function entry(role: Entry['role'], blocks: Entry['blocks'], id = `x${n++}`): Entry {
  return { id, index: 0, parentId: null, role, kind: 'message', blocks, sourceType: role, line: 1 };
}
const text = (t: string) => [{ type: 'text' as const, text: t }];
const journal = (e: Entry): ContextPart => ({ key: `j:${e.id}`, text: () => entryText(e), origin: 'journal', entry: e });
const summary = (t: string, origin: 'summary' | 'compressed' = 'summary'): ContextPart => ({ key: `m:${origin}:${t}`, text: () => t, origin, entry: entry('summary', text(t)) });
const probe = (over: Partial<Probe> & Pick<Probe, 'category' | 'kind' | 'needles'>): Probe => ({ id: `p${n++}`, text: 't', entryId: 'src', entryIndex: 3, ...over });
const kept = (p: Probe, parts: ContextPart[], at?: number) => new ProbeChecker().check([p], () => parts, at)[0]!.kept;

describe('kept means kept', () => {
  const modified = probe({ category: 'artifact', kind: 'modified', needles: [['src/app.ts'], ['app.ts']] });
  const edit = entry('assistant', [{ type: 'tool_call', callId: 'c', name: 'Edit', input: { file_path: 'src/app.ts' } }], 'src');
  const read = entry('assistant', [{ type: 'tool_call', callId: 'r', name: 'Read', input: { file_path: 'src/app.ts' } }]);

  it('an artifact: the call that changed it, or a summary line with its path and its kind; never a Read, a proposal or another kind', () => {
    expect(kept(modified, [journal(edit)])).toBe(true);
    expect(kept(modified, [journal(read)])).toBe(false);
    expect(kept(modified, [journal(entry('assistant', text('I modified src/app.ts.')))])).toBe(false);
    expect(kept(modified, [summary('## Done\n- [x] Changed `src/app.ts` (3 edits)')])).toBe(true);
    expect(kept(modified, [summary('<modified-files>\nsrc/app.ts\n</modified-files>')])).toBe(true);
    expect(kept(modified, [summary('<read-files>\nsrc/app.ts\n</read-files>')])).toBe(false);
    expect(kept(modified, [summary('## Next Steps\n- [ ] We could modify src/app.ts')])).toBe(false);
    expect(kept(modified, [summary('- Modified src/app.ts', 'compressed')])).toBe(false);
  });

  it('never from the system prompt, and a task only from a summary or the user\'s own words', () => {
    const task = probe({ category: 'task', kind: 'request', needles: [['login', 'bug']] });
    expect(kept(task, [journal(entry('system', text('Fix the login bug in AGENTS.md style')))])).toBe(false);
    expect(kept(task, [journal(entry('assistant', text('Working on the login bug now.')))])).toBe(false);
    expect(kept(task, [journal(entry('user', text('<system-reminder>the login bug</system-reminder> hi')))])).toBe(false);
    expect(kept(task, [journal(entry('user', text('also the login bug please')))])).toBe(true);
    expect(kept(task, [summary('## Goal\n- fix the login bug')])).toBe(true);
  });

  it('an error: with its true status where the context ends', () => {
    const failed = entry('tool', [{ type: 'tool_result', callId: 'c', isError: true, content: text('FAILED test_a.py: AssertionError in parser') }], 'src');
    const passed = entry('tool', [{ type: 'tool_result', callId: 'd', isError: false, content: text('3 passed') }], 'fix');
    const error = probe({ category: 'error', kind: 'resolved', needles: [['assertionerror', 'parser']], resolvedAt: 9, resolvedBy: 'fix' });
    // Before the fix (the context covers entries up to 5): the failing output tells the truth.
    expect(kept(error, [journal(failed)], 5)).toBe(true);
    // After the fix: the failure alone says "still failing"; with the passing run it is true.
    expect(kept(error, [journal(failed)], 20)).toBe(false);
    expect(kept(error, [journal(failed), journal(passed)], 20)).toBe(true);
    expect(kept(error, [summary('- pytest: AssertionError in parser, still failing')], 20)).toBe(false);
    expect(kept(error, [summary('- pytest: AssertionError in parser (fixed)')], 20)).toBe(true);
    expect(kept(error, [summary('- pytest: AssertionError in parser, still failing')], 5)).toBe(true);
    // Another error with the same words is not this error.
    const other = entry('tool', [{ type: 'tool_result', callId: 'e', isError: true, content: text('AssertionError in parser') }]);
    expect(kept(error, [journal(other)], 5)).toBe(false);
  });

  it('a constraint: at least 60% of its words in one summary or user message', () => {
    const constraint = probe({ category: 'constraint', kind: 'never', needles: [['console', 'log', 'settheme', 'return', 'caller']] });
    expect(kept(constraint, [summary('- No console logs; setTheme returns errors')])).toBe(true);
    expect(kept(constraint, [summary('- setTheme returns errors')])).toBe(false);
    expect(kept(constraint, [journal(entry('tool', [{ type: 'tool_result', callId: 'z', isError: false, content: text('console log settheme return caller') }]))])).toBe(false);
  });
});
