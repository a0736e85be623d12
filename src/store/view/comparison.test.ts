// A saved comparison's exports, as the page downloads them and `cli eval` agrees with (retention-agree.test.ts).
import { describe, expect, it } from 'vitest';
import { IDS, result } from '../../core/replay/testing-result.ts';
import type { ComparisonRow } from '../../db/schema.ts';
import { comparisonCsv, comparisonJson } from './comparison.ts';

const row = { id: 'x', conversationId: 'c', importId: 'i', createdAt: 0, name: 'n', request: {} as ComparisonRow['request'], result: { conversationId: 'c', counter: 'chars4', counterLabel: 'chars/4', contextWindow: 100, entryIds: IDS, results: [result([]), { ...result([]), label: '=1+1', error: 'boom' }], durationMs: 1 } } as ComparisonRow;

describe('the exports of a saved comparison', () => {
  it('writes one CSV row per configuration, quoting what needs it', () => {
    const lines = comparisonCsv(row).trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('tokens_per_task');
    expect(lines[1]).toMatch(/^"pi, ""quoted""",pi,"\{""keepRecentTokens"":""10""\}",4,0,30,0,60,60,0,0,0\.001230,claude-sonnet-4-5,1,2,1,1,0,0,0,1,/);
    expect(lines[1]!.endsWith(',2,4,')).toBe(true);
    expect(lines[2]!.startsWith("'=1+1,")).toBe(true);
    expect(lines[2]!.endsWith(',boom')).toBe(true);
  });

  it('writes the JSON with its name, ISO date, request and result', () => {
    const json = JSON.parse(comparisonJson(row)) as { name: string; createdAt: string; result: { results: unknown[] } };
    expect(json.name).toBe('n');
    expect(json.createdAt).toBe('1970-01-01T00:00:00.000Z');
    expect(json.result.results).toHaveLength(2);
  });
});
