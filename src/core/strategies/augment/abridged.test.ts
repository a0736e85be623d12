import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries } from '../../compaction/testing.ts';
import { readFileSync } from 'node:fs';
import { CLAUDE_SAMPLE, claudeWithHarness } from '../../summarize/testing.ts';
import { abridgedHistory, accumulateAbridged, clipInline, renderExchange, structureTurn, type StructuredExchange } from './abridged.ts';
import { HandlebarsError, renderHandlebars } from './handlebars.ts';
import { parseAugmentOptions } from './params.ts';

const limits = parseAugmentOptions();
const blank: StructuredExchange = {
  userMessage: '', filesModified: [], filesCreated: [], filesDeleted: [], filesViewed: [], terminalCommands: [],
  agentResponse: '', wasInterrupted: false, continues: false,
};

describe('abridged exchange template (seed 000 §5.3)', () => {
  it('renders the seed example with the template structure', () => {
    const text = renderExchange({
      ...blank,
      userMessage: 'Fix the authentication bug in login.js',
      filesViewed: ['/src/auth/login.js', '/src/utils/jwt.js'],
      filesModified: ['/src/auth/login.js'],
      terminalCommands: ['npm test auth'],
      agentResponse: 'Fixed the token validation logic. The bug was caused by incorrect expiration time comparison.',
    }, limits);
    expect(text).toBe(`<user>
Fix the authentication bug in login.js
</user>
<agent_actions>
    <files_modified>
        /src/auth/login.js
    </files_modified>
    <files_viewed>
        /src/auth/login.js
        /src/utils/jwt.js
    </files_viewed>
    <terminal_commands>
        npm test auth
    </terminal_commands>
</agent_actions>
<agent_response>
Fixed the token validation logic. The bug was caused by incorrect expiration time comparison.
</agent_response>
`);
  });

  it('no actions, interrupted, continues, nothing', () => {
    expect(renderExchange({ ...blank, userMessage: 'hi', wasInterrupted: true }, limits)).toBe('<user>\nhi\n</user>\n<agent_was_interrupted/>\n');
    expect(renderExchange({ ...blank, userMessage: 'hi', wasInterrupted: true, continues: true }, limits)).toBe('<user>\nhi\n</user>\n<agent_was_interrupted/>\n');
    expect(renderExchange({ ...blank, userMessage: 'hi', continues: true }, limits)).toBe('<user>\nhi\n</user>\n<agent_continues/>\n');
    expect(renderExchange({ ...blank, userMessage: 'hi' }, limits)).toBe('<user>\nhi\n</user>\n');
    expect(renderExchange({ ...blank, userMessage: 'hi', agentResponse: 'yes', wasInterrupted: true }, limits)).toContain('<agent_response>\nyes\n</agent_response>');
  });

  it('files created and deleted get their own sections', () => {
    const text = renderExchange({ ...blank, userMessage: 'u', filesCreated: ['a.ts'], filesDeleted: ['b.ts'] }, limits);
    expect(text).toContain('    <files_created>\n        a.ts\n    </files_created>\n    <files_deleted>\n        b.ts\n    </files_deleted>\n');
  });

  it('the mini Handlebars refuses what it does not support', () => {
    expect(() => renderHandlebars('{{#if a}}x', { a: true })).toThrow(HandlebarsError);
    expect(() => renderHandlebars('{{{missing}}}', {})).toThrow(/missing/);
    expect(renderHandlebars('{{#each xs}}[{{{this}}}]{{/each}}', { xs: ['a', 'b'] })).toBe('[a][b]');
    expect(renderHandlebars('{{#if a}}A{{else if b}}B{{else}}C{{/if}}', { a: false, b: '' })).toBe('C');
  });
});

describe('abridged limits (seed 000 §6.3)', () => {
  it('user message 1,000 and agent response 2,000 chars, truncated in the middle keeping both ends', () => {
    const user = `START${'u'.repeat(5000)}END`;
    const agent = `BEGIN${'a'.repeat(9000)}FINISH`;
    const text = renderExchange({ ...blank, userMessage: user, agentResponse: agent }, limits);
    const userPart = text.slice('<user>\n'.length, text.indexOf('\n</user>'));
    expect(userPart.length).toBe(1000);
    expect(userPart.startsWith('START')).toBe(true);
    expect(userPart.endsWith('END')).toBe(true);
    expect(userPart).toContain('characters omitted');
    const agentPart = text.slice(text.indexOf('<agent_response>\n') + 17, text.indexOf('\n</agent_response>'));
    expect(agentPart.length).toBe(2000);
    expect(agentPart.startsWith('BEGIN')).toBe(true);
    expect(agentPart.endsWith('FINISH')).toBe(true);
  });

  it('200 chars per action on one line, both ends kept; 10 per category', () => {
    const long = `/root/${'d/'.repeat(300)}file.ts`;
    expect(clipInline(long, 200)).toHaveLength(200);
    expect(clipInline(long, 200).startsWith('/root/')).toBe(true);
    expect(clipInline(long, 200).endsWith('file.ts')).toBe(true);
    expect(clipInline('echo a\n  && echo b', 200)).toBe('echo a && echo b');
    const files = Array.from({ length: 15 }, (_, i) => `f${i}.ts`);
    const text = renderExchange({ ...blank, userMessage: 'u', filesViewed: files, terminalCommands: files.map((f) => `cat ${f}`) }, limits);
    expect(text).toContain('f9.ts');
    expect(text).not.toContain('f10.ts');
    expect((text.match(/ {8}cat /g) ?? []).length).toBe(10);
    const three = renderExchange({ ...blank, userMessage: 'u', filesViewed: files }, { ...limits, numFilesViewedLimit: 3 });
    expect((three.match(/ {8}f\d+\.ts/g) ?? []).length).toBe(3);
  });

  it('accumulates newest first until 10,000 chars, output oldest first', () => {
    const exchanges = Array.from({ length: 30 }, (_, i) => ({ ...blank, userMessage: `message ${i} ${'x'.repeat(800)}` }));
    const out = accumulateAbridged(exchanges, limits);
    const one = renderExchange(exchanges[0]!, limits).length;
    expect(out.included).toBe(Math.floor(10_000 / one));
    expect(out.chars).toBeLessThanOrEqual(10_000);
    expect(out.text).toContain('message 29 ');
    expect(out.text).not.toContain(`message ${29 - out.included} `);
    expect(out.text.indexOf('message 28 ')).toBeLessThan(out.text.indexOf('message 29 '));
    expect(accumulateAbridged(exchanges, { ...limits, totalCharsLimit: one - 1 }).included).toBe(0);
  });
});

describe('structured exchanges from entries', () => {
  const entries = linkEntries(makeEntries([
    { system: 'You are helpful.' },
    { user: 'Please fix the tests' },
    { assistant: 'Looking.', calls: [{ id: 'c1', name: 'Read', input: { file_path: 'src/a.ts' } }, { id: 'c2', name: 'Bash', input: { command: 'npm test' } }] },
    { tool: 'contents', callId: 'c1' },
    { tool: 'FAIL', callId: 'c2' },
    { assistant: '', calls: [{ id: 'c3', name: 'Edit', input: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' } }, { id: 'c4', name: 'Write', input: { file_path: 'src/b.ts', content: 'x' } }] },
    { tool: 'ok', callId: 'c3' },
    { tool: 'ok', callId: 'c4' },
    { assistant: 'Fixed: the tests pass.' },
    { user: 'Now delete the temp file' },
    { assistant: '', calls: [{ id: 'c5', name: 'Bash', input: { command: 'rm tmp.txt' } }] },
    { tool: 'done', callId: 'c5' },
  ]));

  it('maps tool calls to categories (A6) and finds the answer', () => {
    const s = structureTurn(entries, 1, 8, false);
    expect(s.userMessage).toBe('Please fix the tests');
    expect(s.filesViewed).toEqual(['src/a.ts']);
    expect(s.filesModified).toEqual(['src/a.ts']);
    expect(s.filesCreated).toEqual(['src/b.ts']);
    expect(s.terminalCommands).toEqual(['npm test']);
    expect(s.agentResponse).toBe('Fixed: the tests pass.');
  });

  it('a turn cut by the tail continues; an injected interruption marks it interrupted', () => {
    const out = abridgedHistory(entries, 11, limits);
    expect(out.available).toBe(2);
    expect(out.text).toContain('<user>\nNow delete the temp file\n</user>');
    expect(out.text).toContain('<terminal_commands>\n        rm tmp.txt\n    </terminal_commands>\n</agent_actions>\n<agent_continues/>');
    const interrupted = makeEntries([{ user: 'go' }, { assistant: '', calls: [{ id: 'k', name: 'Bash', input: { command: 'sleep 100' } }] }, { tool: 'killed', callId: 'k' }, { user: '[Request interrupted by user for tool use]' }, { user: 'stop' }]);
    interrupted[3]!.flags = { injected: true };
    expect(structureTurn(interrupted, 0, 3, false).wasInterrupted).toBe(true);
  });
});

describe('a run of harness text alone (real Claude Code sample opened by a /clear echo)', () => {
  it('gives no empty <user></user> block', () => {
    const entries = claudeWithHarness(readFileSync(CLAUDE_SAMPLE, 'utf8'));
    // The caveat, the /clear echo and its output come before the first prompt: a turn with nothing in it.
    expect(entries.slice(0, 3).every((entry) => entry.flags?.injected)).toBe(true);
    expect(structureTurn(entries, 0, 2, false).userMessage).toBe('');
    const out = abridgedHistory(entries, entries.length, { ...limits, totalCharsLimit: 1_000_000 });
    expect(out.text).not.toMatch(/<user>\s*<\/user>/);
    // The IDE selection and reminder inside the first prompt are the harness's: the user message is the words alone.
    expect(out.text.startsWith('<user>\nHey Claude, please have a look at the git diff')).toBe(true);
    expect(out.text).not.toMatch(/ide_selection|system-reminder/);
  });
});

