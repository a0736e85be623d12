// The real opencode session in the samples: the messages opencode's server (1.1.49) listed for a
// session of two requests, captured by sandbox-agent (public/samples/NOTICE.md). Counts by hand.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkReport } from '../journal/link.ts';
import { detectDocumentFormat } from './detect.ts';
import { importText } from './run.ts';

const PATH = 'public/samples/opencode/sandbox-agent-messages.json';
const TEXT = readFileSync(PATH, 'utf8');

describe('a real opencode session: the message list of opencode 1.1.49', () => {
  it('is detected as opencode from its content', () => {
    expect(detectDocumentFormat(JSON.parse(TEXT))).toBe('opencode');
    expect(detectDocumentFormat([{ role: 'user', content: 'hi' }])).not.toBe('opencode');
  });

  it('reads 2 requests and 3 assistant messages: the ls call paired with its result, each step with its recorded usage', () => {
    const result = importText(TEXT, { fileName: 'sandbox-agent-messages.json' });
    expect(result.format).toBe('opencode');
    expect(result.issues).toEqual([]);
    expect(result.meta).toMatchObject({ sessionId: 'ses_3ce42bdb9ffeEIUUu08AuKTJms', model: 'claude-haiku-4-5' });
    expect(result.entries.map((entry) => entry.role).join(' ')).toBe('user assistant user assistant tool assistant');
    expect(result.entries.map((entry) => entry.line)).toEqual([2, 30, 99, 127, 127, 212]) // each message's opening brace (the tool result: its call's message);
    expect(result.entries[0]!.blocks).toEqual([{ type: 'text', text: "Respond with exactly: 'Hello from OpenCode'. Nothing else." }]);
    expect(result.entries[1]!.blocks).toEqual([{ type: 'text', text: 'Hello from OpenCode' }]);
    expect(result.entries[3]!.blocks).toMatchObject([{ type: 'tool_call', callId: 'toolu_017THj1iZNELroZgmFbqC6Ma', name: 'bash', input: { command: 'ls -la', description: 'List files in current directory' } }]);
    expect(result.entries[4]!.blocks[0]).toMatchObject({ type: 'tool_result', callId: 'toolu_017THj1iZNELroZgmFbqC6Ma', isError: false, content: [{ type: 'text', text: expect.stringMatching(/^total 24\n.*capture-native\.ts\n.*snapshots\n$/s) }] });
    expect(linkReport(result.entries)).toEqual({ toolCalls: 1, toolResults: 1, orphanToolCalls: 0, orphanToolResults: 0 });
    // input = input + cache read + cache write, as opencode stores input without the cache.
    expect(result.entries.filter((entry) => entry.usage).map((entry) => entry.usage)).toEqual([
      { input: 13542, output: 7, cacheRead: 13540 },
      { input: 13580, output: 78, cacheRead: 13547, cacheWrite: 31 },
      { input: 13790, output: 38, cacheRead: 13578, cacheWrite: 207 },
    ]);
  });
});
