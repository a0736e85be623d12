import { describe, expect, it } from 'vitest';
import type { Entry } from '../../journal/entry.ts';
import { linkEntries, makeEntries } from '../../compaction/testing.ts';
import { ACTION_VALUE_MAX_CHARS, serializeReact } from './react-serialize.ts';

describe('serializeReact (L12, seed §E1)', () => {
  it('writes [assistant] Thought/Action steps, [tool] compressed JSON and Finish for the answer', () => {
    const entries = linkEntries(makeEntries([
      { system: 'You are an agent.' },
      { user: 'Where is parse defined?' },
      { assistant: 'I will search for it.', calls: [{ id: 'c1', name: 'Grep', input: { pattern: 'function parse' } }] },
      { tool: 'src/parse.ts:12:export function parse(', callId: 'c1' },
      { assistant: 'It is in src/parse.ts, line 12.' },
    ]));
    expect(serializeReact(entries)).toBe([
      '[user] Where is parse defined?',
      '[assistant] Thought: I will search for it.\nAction: Grep[{"pattern":"function parse"}]',
      '[tool] {"status":"success","data":{"pattern":"function parse","summary":"1 line of results","matches":["src/parse.ts:12:export function parse("]}}',
      '[assistant] Action: Finish[It is in src/parse.ts, line 12.]',
    ].join('\n\n'));
  });

  it('reads consecutive assistant entries (one response split per block) as one step, thinking as Thought', () => {
    const entries: Entry[] = linkEntries(makeEntries([
      { user: 'fix it' },
      { assistant: '' },
      { assistant: '', calls: [{ id: 'a', name: 'Bash', input: { command: 'make' } }, { id: 'b', name: 'LS', input: { path: '.' } }] },
      { tool: 'ok', callId: 'a' },
      { tool: 'a.ts', callId: 'b' },
    ]));
    entries[1]!.blocks = [{ type: 'thinking', text: 'Run make first.' }];
    const text = serializeReact(entries);
    expect(text).toContain('[assistant] Thought: Run make first.\nAction: Bash[{"command":"make"}]\nAction: LS[{"path":"."}]');
    expect(text).toContain('[tool] {"status":"success","data":{"lines":1,"output":"ok"}}\n\n[tool] {"status":"success","data":{"directory":".","items":1,"first":["a.ts"]}}');
  });

  it('leaves out system prompts, summaries and events, and labels injected user text', () => {
    const entries: Entry[] = makeEntries([{ system: 'SYS' }, { user: 'old summary' }, { user: '<system-reminder>r</system-reminder>' }, { user: 'hook output' }, { user: 'real' }]);
    entries[1] = { ...entries[1]!, role: 'summary', kind: 'compaction' };
    entries[2]!.flags = { injected: true };
    entries[3] = { ...entries[3]!, kind: 'event' };
    expect(serializeReact(entries)).toBe('[user (injected by the harness)] <system-reminder>r</system-reminder>\n\n[user] real');
  });

  it('clips long action arguments at both ends', () => {
    const body = `${'a'.repeat(3000)}END`;
    const text = serializeReact(makeEntries([{ assistant: '', calls: [{ id: 'w', name: 'Write', input: { file_path: 'x', content: body } }] }]));
    expect(text.length).toBeLessThan(ACTION_VALUE_MAX_CHARS + 200);
    expect(text).toContain('END');
    expect(text).toContain('characters omitted');
  });
});
