import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries } from '../compaction/testing.ts';
import type { ContextEntry } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { toMarkdown } from './markdown.ts';

function context(): ContextEntry[] {
  const body: ContextEntry[] = linkEntries(
    makeEntries([
      { system: 'You are a coding agent.' },
      { user: 'placeholder' },
      { assistant: 'Reading.', calls: [{ id: 'toolu_1', name: 'Read', input: { path: 'src/a.ts' } }] },
      { tool: 'x'.repeat(5000), callId: 'toolu_1' },
      { assistant: '', calls: [{ id: 'toolu_2', name: 'Bash', input: { command: 'cat README.md' } }] },
      { tool: 'Usage:\n```sh\nnpm start\n```', callId: 'toolu_2', error: true },
      { user: 'Thanks.' },
    ]),
  ).map((entry) => ({ role: entry.role, entry, origin: 'journal' }));
  const summary: Entry = { id: 'sum-1', index: 0, parentId: null, role: 'summary', kind: 'message', blocks: [{ type: 'text', text: 'Earlier: the user set up the repo.' }], sourceType: 'summary', line: 0 };
  body[1] = { role: 'summary', entry: summary, origin: 'summary', replaces: { fromId: 'x0', toId: 'x11', count: 12 } };
  return body;
}

describe('toMarkdown', () => {
  it('writes a heading per entry, calls as fenced JSON, results as fenced text kept whole, and marks summaries', () => {
    const md = toMarkdown(context(), 'Session 37f83ec9');
    expect(md.startsWith('# Session 37f83ec9\n\n## System\n\nYou are a coding agent.\n\n## Summary\n\n> **Summary** (replaces 12 entries)\n\nEarlier: the user set up the repo.')).toBe(true);
    expect(md).toContain('## Assistant\n\nReading.\n\n**Tool call** `Read` (`toolu_1`)\n\n```json\n{\n  "path": "src/a.ts"\n}\n```');
    expect(md).toContain(`## Tool result\n\n**Result** of \`Read\` (\`toolu_1\`)\n\n\`\`\`text\n${'x'.repeat(5000)}\n\`\`\``);
    expect(md).toContain('## User\n\nThanks.\n');
    expect(md.endsWith('\n')).toBe(true);
  });

  it('fences content that holds backticks with a longer fence and marks errors', () => {
    const md = toMarkdown(context(), 't');
    expect(md).toContain('**Result** of `Bash` (`toolu_2`) — **error**\n\n````text\nUsage:\n```sh\nnpm start\n```\n````');
  });

  it('marks a summary spoken as user, compressed entries, thinking and images', () => {
    const entry = (id: string, blocks: Entry['blocks'], role: Entry['role'] = 'user'): Entry => ({ id, index: 0, parentId: null, role, kind: 'message', blocks, sourceType: 'test', line: 1 });
    const md = toMarkdown(
      [
        { role: 'user', entry: entry('s', [{ type: 'text', text: 'Summary text.' }]), origin: 'summary', replaces: { fromId: 'a', toId: 'a', count: 1 } },
        { role: 'user', entry: entry('i', [{ type: 'image', mediaType: 'image/png', bytes: 34 * 1024, source: 'base64' }]), origin: 'journal' },
        { role: 'assistant', entry: entry('t', [{ type: 'thinking', text: 'Hmm.', signature: 's' }, { type: 'thinking', text: '', redacted: true }], 'assistant'), origin: 'journal' },
        { role: 'tool', entry: entry('c', [{ type: 'tool_result', callId: 'k', toolName: 'read', content: [{ type: 'text', text: '[42 lines omitted]' }], isError: false }], 'tool'), origin: 'compressed' },
        { role: 'user', entry: { ...entry('e', [{ type: 'text', text: 'hook output' }]), kind: 'event' }, origin: 'journal' },
      ],
      'x',
    );
    expect(md).toContain('## User\n\n> **Summary** (replaces 1 entry)\n\nSummary text.');
    expect(md).toContain('_[image: image/png, 34 KB]_');
    expect(md).toContain('<details><summary>Thinking</summary>\n\nHmm.\n\n</details>\n\n_[thinking redacted]_');
    expect(md).toContain('## Tool result\n\n> **Compressed**');
    expect(md).toContain('**Result** of `read` (`k`)');
    expect(md).not.toContain('hook output');
  });

  it('escapes HTML typed in messages, thinking, names and the title, and keeps tool output in its fence verbatim', () => {
    const entry = (id: string, blocks: Entry['blocks'], role: Entry['role'] = 'user'): Entry => ({ id, index: 0, parentId: null, role, kind: 'message', blocks, sourceType: 'test', line: 1 });
    const md = toMarkdown(
      [
        { role: 'user', entry: entry('u', [{ type: 'text', text: 'Run <script>alert(1)</script> then <img src=x onerror=alert(2)>' }]), origin: 'journal' },
        { role: 'assistant', entry: entry('a', [{ type: 'thinking', text: '<iframe src=x>' }, { type: 'tool_call', callId: 'c`1', name: 'x`<b>`', input: { html: '<script>' } }], 'assistant'), origin: 'journal' },
        { role: 'tool', entry: entry('t', [{ type: 'tool_result', callId: 'c`1', content: [{ type: 'text', text: '<html><script>x</script>' }], isError: false }], 'tool'), origin: 'journal' },
      ],
      'Evil <svg onload=alert(3)>',
    );
    expect(md.startsWith('# Evil &lt;svg onload=alert(3)>\n')).toBe(true);
    expect(md).toContain('Run &lt;script>alert(1)&lt;/script> then &lt;img src=x onerror=alert(2)>');
    expect(md).toContain('<details><summary>Thinking</summary>\n\n&lt;iframe src=x>\n\n</details>');
    expect(md).toContain('**Tool call** `` x`<b>` `` (``c`1``)\n\n```json\n{\n  "html": "<script>"\n}\n```');
    expect(md).toContain('```text\n<html><script>x</script>\n```');
  });
});
