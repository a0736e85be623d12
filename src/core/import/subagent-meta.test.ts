// Subagent metadata files: read, paired with their transcript, refused by name when broken.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from './run.ts';
import { isSubagentMetaName, parseSubagentMeta, subagentMetaNameOf, subagentTranscriptNameOf, withSubagentMeta } from './subagent-meta.ts';
import { ImportFormatError } from './types.ts';

const DIR = 'src/core/import/__fixtures__/claude-code/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents';

describe('subagent metadata', () => {
  it('pairs names both ways and tells metadata from transcripts', () => {
    expect(isSubagentMetaName('agent-a4ca7529859c158c2.meta.json')).toBe(true);
    expect(isSubagentMetaName('agent-a4ca7529859c158c2.jsonl')).toBe(false);
    expect(isSubagentMetaName('session.meta.json')).toBe(false);
    expect(subagentMetaNameOf('agent-a4ca7529859c158c2.jsonl')).toBe('agent-a4ca7529859c158c2.meta.json');
    expect(subagentMetaNameOf('ef958aa1.jsonl')).toBeUndefined();
    expect(subagentTranscriptNameOf('agent-a4ca7529859c158c2.meta.json')).toBe('agent-a4ca7529859c158c2.jsonl');
  });

  it('merges a real metadata file into the subagent link and titles the conversation', () => {
    const meta = parseSubagentMeta(readFileSync(`${DIR}/agent-a4ca7529859c158c2.meta.json`, 'utf8'), 'agent-a4ca7529859c158c2.meta.json');
    expect(meta).toEqual({ agentType: 'general-purpose', description: 'Research Claude Code plan mode' });
    const result = withSubagentMeta(importText(readFileSync(`${DIR}/agent-a4ca7529859c158c2.jsonl`)), meta);
    expect(result.meta.title).toBe('Research Claude Code plan mode');
    expect(result.meta.subagent).toEqual({
      parentSessionId: 'ef958aa1-0e93-49f0-bb71-150f63befcd1', agentId: 'a4ca7529859c158c2', agentType: 'general-purpose', description: 'Research Claude Code plan mode',
    });
  });

  it('refuses a broken metadata file by name', () => {
    expect(() => parseSubagentMeta('{"agentType":', 'agent-x.meta.json')).toThrow(ImportFormatError);
    expect(() => parseSubagentMeta('{"agentType":', 'agent-x.meta.json')).toThrow(/"agent-x\.meta\.json" is not valid JSON/);
    expect(() => parseSubagentMeta('[1]', 'agent-x.meta.json')).toThrow(/"agent-x\.meta\.json" is not a JSON object/);
  });
});
