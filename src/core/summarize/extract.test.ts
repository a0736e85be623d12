// Fact extraction: requests and constraints from the user's own words, files / commands / errors
// from tool calls (with resolution), todos, decisions and time range, on small factory sessions.
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries } from '../compaction/testing.ts';
import type { Entry } from '../journal/entry.ts';
import { clipLine, errorLine, extractConstraints, extractDecisions, extractFacts, itemKey, splitSentences, todosFromCall } from './extract.ts';

function session(): Entry[] {
  const entries = linkEntries(makeEntries([
    { system: 'You are a coding agent.' },
    { user: 'Fix the login bug in src/auth.ts. You must keep the public API unchanged. Do not add dependencies.' },
    { user: '<system-reminder>injected</system-reminder>' },
    { assistant: "I'll read the file first because the bug is probably in the token check.", calls: [{ id: 'c1', name: 'Read', input: { file_path: 'src/auth.ts' } }] },
    { tool: 'export function login() {}', callId: 'c1' },
    { assistant: '', calls: [{ id: 'c2', name: 'Edit', input: { file_path: 'src/auth.ts', old_string: 'a', new_string: 'b' } }] },
    { tool: 'Found 2 matches of the string to replace', callId: 'c2', error: true },
    { assistant: '', calls: [{ id: 'c3', name: 'Edit', input: { file_path: 'src/auth.ts', old_string: 'aa', new_string: 'b' } }] },
    { tool: 'ok', callId: 'c3' },
    { assistant: '', calls: [{ id: 'c4', name: 'Bash', input: { command: 'npm test' } }] },
    { tool: '=== test run ===\n1 test failed\nsummary line', callId: 'c4', error: true },
    { assistant: '', calls: [{ id: 'c5', name: 'Bash', input: { command: 'npm run lint' } }] },
    { tool: 'lint error: no-unused-vars', callId: 'c5', error: true },
    { assistant: '', calls: [{ id: 'c6', name: 'Write', input: { file_path: 'src/new.ts', content: 'x' } }, { id: 'c7', name: 'Bash', input: { command: 'npm test' } }] },
    { tool: 'ok', callId: 'c6' },
    { tool: 'all passed', callId: 'c7' },
    { assistant: 'Fixed. I decided to use a constant-time compare instead of ===.' },
    { user: '不要修改数据库结构。然后把测试也补上' },
  ]));
  (entries[2]!.flags ??= {}).injected = true;
  return entries;
}

describe('extractFacts', () => {
  const facts = extractFacts(session());

  it('takes user requests verbatim and skips injected ones', () => {
    expect(facts.requests).toEqual([
      'Fix the login bug in src/auth.ts. You must keep the public API unchanged. Do not add dependencies.',
      '不要修改数据库结构。然后把测试也补上',
    ]);
    expect(facts.lastRequest).toBe('不要修改数据库结构。然后把测试也补上');
    expect(facts.lastRequestAnswered).toBe(false);
    expect(facts.answered).toEqual([true, false]);
  });

  it('extracts constraint sentences in English and Chinese', () => {
    expect(facts.constraints).toEqual(['You must keep the public API unchanged.', 'Do not add dependencies.', '不要修改数据库结构。']);
  });

  it('lists files read / modified / created via tool-actions', () => {
    expect(facts.files).toEqual({ read: [], modified: ['src/auth.ts', 'src/new.ts'], created: ['src/new.ts'], deleted: [] });
    expect(facts.changes).toEqual([
      { path: 'src/auth.ts', edits: 2, created: false, deleted: false },
      { path: 'src/new.ts', edits: 0, created: true, deleted: false },
    ]);
    expect(facts.commands).toEqual(['npm test', 'npm run lint']);
    expect(facts.tools).toEqual(['Bash', 'Edit', 'Read', 'Write']);
  });

  it('marks an error resolved when the same tool on the same path, or the same command, succeeds later', () => {
    expect(facts.errors.map((error) => [error.tool, error.target, error.resolved])).toEqual([
      ['Edit', 'src/auth.ts', true],
      ['Bash', 'npm test', true],
      ['Bash', 'npm run lint', false],
    ]);
    expect(facts.errors[1]!.message).toBe('1 test failed');
    expect(facts.errors[2]!.message).toBe('lint error: no-unused-vars');
  });

  it('keeps decisions (a choice, not narration) and the time range', () => {
    // "I'll read the file first because …" says what the assistant does next: narration, not a choice.
    expect(facts.decisions).toEqual(['I decided to use a constant-time compare instead of ===.']);
    expect(facts.timeRange).toEqual({ start: new Date(1_700_000_000_000).toISOString(), end: new Date(1_700_000_017_000).toISOString() });
  });

  it('reports entries flagged as errors, resolved by a later good response', () => {
    const entries = makeEntries([{ user: 'go' }, { assistant: 'API Error: 529 overloaded' }, { assistant: 'Done.' }]);
    entries[1]!.flags = { error: true, synthetic: true };
    const result = extractFacts(entries);
    expect(result.errors).toEqual([{ tool: 'API', message: 'API Error: 529 overloaded', entryId: 'e1', resolved: true }]);
    expect(result.lastRequestAnswered).toBe(true);
  });

  it('takes the last todo list (TodoWrite / update_plan)', () => {
    const entries = makeEntries([
      { assistant: '', calls: [{ id: 't1', name: 'TodoWrite', input: { todos: [{ content: 'a', status: 'pending' }] } }] },
      { assistant: '', calls: [{ id: 't2', name: 'update_plan', input: JSON.stringify({ plan: [{ step: 'b', status: 'completed' }, { step: 'c', status: 'in_progress' }] }) }] },
    ]);
    expect(extractFacts(entries).todos).toEqual([{ content: 'b', status: 'completed' }, { content: 'c', status: 'in_progress' }]);
    expect(todosFromCall({ type: 'tool_call', callId: 'x', name: 'Read', input: {} })).toBeUndefined();
  });

  it('collects the text and file lists of summaries inside the range', () => {
    const entries = makeEntries([{ user: 'hi' }]);
    entries.push({ id: 's', index: 1, parentId: 'e0', role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: '## Goal\n- old goal' }], sourceType: 'test', line: 2, marker: { source: 'pi.compaction', readFiles: ['a.ts'], modifiedFiles: ['b.ts'] } });
    const result = extractFacts(entries);
    expect(result.priorSummaries).toEqual(['## Goal\n- old goal']);
    expect(result.files.read).toEqual(['a.ts']);
    expect(result.files.modified).toEqual(['b.ts']);
  });

  it('is empty, not failing, on no entries', () => {
    const empty = extractFacts([]);
    expect(empty.requests).toEqual([]);
    expect(empty.timeRange).toBeUndefined();
    expect(empty.lastRequestAnswered).toBe(false);
  });
});

describe('sentence helpers', () => {
  it('splits prose, not fenced code', () => {
    expect(splitSentences('One. Two!\n- three\n```\nnever mind\n```\n四。五')).toEqual(['One.', 'Two!', 'three', '四。', '五']);
  });

  it('finds constraints with curly apostrophes and skips plain statements', () => {
    expect(extractConstraints('Don’t touch main. The sky is blue. Only use pnpm. 禁止提交密钥')).toEqual(['Don’t touch main.', 'Only use pnpm.', '禁止提交密钥']);
  });

  it('finds decisions in prose only', () => {
    expect(extractDecisions("**Fast** - instead of slow.\nI'll use a map because lookups are frequent. Ok.")).toEqual(["I'll use a map because lookups are frequent."]);
  });

  it('picks the telling error line', () => {
    expect(errorLine('=== banner ===\ncollected 3\n=== 3 deselected ===')).toBe('3 deselected');
    expect(errorLine('Found 2 matches\nString: x')).toBe('Found 2 matches');
    expect(errorLine('a\nTypeError: x is undefined\nat foo')).toBe('TypeError: x is undefined');
  });

  it('clips to one line and keys items loosely', () => {
    expect(clipLine('a\n b', 10)).toBe('a b');
    expect(clipLine('x'.repeat(50), 20).length).toBeLessThanOrEqual(20);
    expect(itemKey('  Keep  it. ')).toBe(itemKey('keep it'));
  });
});
