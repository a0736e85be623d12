import { describe, expect, it } from 'vitest';
import { generateSession, generateSessionLines } from './generate-session.ts';

interface Line {
  type: string;
  uuid?: string;
  parentUuid?: string | null;
  timestamp?: string;
  sourceToolAssistantUUID?: string;
  message?: {
    id?: string;
    content: string | { type: string; id?: string; tool_use_id?: string; is_error?: boolean }[];
    stop_reason?: string | null;
    usage?: { output_tokens: number };
  };
}

const parse = (text: string): Line[] => text.trimEnd().split('\n').map((l) => JSON.parse(l) as Line);
const blocks = (line: Line): { type: string; id?: string; tool_use_id?: string; is_error?: boolean }[] =>
  Array.isArray(line.message?.content) ? line.message.content : [];
const utf8 = (s: string): number => new TextEncoder().encode(s).length;

const text = generateSession();
const lines = parse(text);

describe('generateSession', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = generateSession({ iterations: 60, seed: 7 });
    expect(generateSession({ iterations: 60, seed: 7 })).toBe(a);
    expect(generateSession({ iterations: 60, seed: 8 })).not.toBe(a);
    expect(generateSession({ iterations: 60, seed: 7, startMs: Date.UTC(2025, 0, 1) })).not.toBe(a);
  });

  it('writes one valid JSON object per line, starting with a summary title', () => {
    expect(text.endsWith('\n')).toBe(true);
    for (const raw of text.trimEnd().split('\n')) expect(() => JSON.parse(raw) as unknown).not.toThrow();
    expect(lines[0]?.type).toBe('summary');
    expect(lines.slice(1).every((l) => l.type === 'user' || l.type === 'assistant')).toBe(true);
  });

  it('matches the streaming generator line for line', () => {
    expect([...generateSessionLines({ iterations: 40, seed: 3 })].join('\n') + '\n').toBe(generateSession({ iterations: 40, seed: 3 }));
  });

  it('has about 0.5–2 MB for the default 300 iterations', () => {
    const bytes = utf8(text);
    expect(bytes).toBeGreaterThan(500_000);
    expect(bytes).toBeLessThan(2_500_000);
  });

  it('respects the iteration count (distinct assistant message ids)', () => {
    const ids = (t: string): number => new Set(parse(t).flatMap((l) => (l.type === 'assistant' && l.message?.id ? [l.message.id] : []))).size;
    expect(ids(text)).toBe(300);
    expect(ids(generateSession({ iterations: 37, seed: 5 }))).toBe(37);
    expect(ids(generateSession({ iterations: 1 }))).toBe(1);
  });

  it('respects targetBytes within 10%', () => {
    for (const [target, seed] of [[400_000, 1], [2_000_000, 9]] as const) {
      const bytes = utf8(generateSession({ targetBytes: target, seed }));
      expect(Math.abs(bytes - target) / target).toBeLessThan(0.1);
    }
  });

  it('gives every tool_use exactly one tool_result, sourced from the line holding the tool_use', () => {
    const useLine = new Map<string, string>();
    const results = new Map<string, number>();
    for (const l of lines) {
      for (const b of blocks(l)) {
        if (b.type === 'tool_use' && b.id) {
          expect(useLine.has(b.id)).toBe(false);
          useLine.set(b.id, l.uuid as string);
        }
        if (b.type === 'tool_result' && b.tool_use_id) {
          results.set(b.tool_use_id, (results.get(b.tool_use_id) ?? 0) + 1);
          expect(l.sourceToolAssistantUUID).toBe(useLine.get(b.tool_use_id));
          expect(l.parentUuid).toBe(l.sourceToolAssistantUUID);
        }
      }
    }
    expect(useLine.size).toBeGreaterThan(250);
    expect([...useLine.keys()].sort()).toEqual([...results.keys()].sort());
    expect([...results.values()].every((n) => n === 1)).toBe(true);
  });

  it('chains parentUuid to earlier lines, with unique uuids and non-decreasing timestamps', () => {
    const seen = new Set<string>();
    let last = '';
    for (const l of lines.slice(1)) {
      if (l.parentUuid !== null) expect(seen.has(l.parentUuid as string)).toBe(true);
      expect(seen.has(l.uuid as string)).toBe(false);
      expect(l.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      seen.add(l.uuid as string);
      expect((l.timestamp as string) >= last).toBe(true);
      last = l.timestamp as string;
    }
    expect(lines.slice(1).filter((l) => l.parentUuid === null)).toHaveLength(1);
  });

  it('splits assistant messages over lines with partial then final usage, and has parallel calls', () => {
    const byId = new Map<string, Line[]>();
    for (const l of lines) if (l.type === 'assistant') byId.set(l.message?.id as string, [...(byId.get(l.message?.id as string) ?? []), l]);
    const split = [...byId.values()].filter((group) => group.length > 1);
    expect(split.length).toBeGreaterThan(50);
    for (const group of split) {
      const final = group[group.length - 1] as Line;
      expect(final.message?.stop_reason).toMatch(/^(tool_use|end_turn)$/);
      for (const early of group.slice(0, -1)) {
        expect(early.message?.stop_reason).toBeNull();
        expect(early.message?.usage?.output_tokens).toBeLessThanOrEqual(final.message?.usage?.output_tokens as number);
      }
    }
    const parallel = [...byId.values()].filter((group) => group.filter((l) => blocks(l)[0]?.type === 'tool_use').length >= 2);
    expect(parallel.length).toBeGreaterThan(0);
    expect([...byId.values()].some((group) => group.some((l) => blocks(l)[0]?.type === 'thinking'))).toBe(true);
  });

  it('contains CJK text, error results and a long output', () => {
    expect(text).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    expect(lines.some((l) => blocks(l).some((b) => b.type === 'tool_result' && b.is_error === true))).toBe(true);
    const longest = Math.max(...text.split('\n').map((l) => l.length));
    expect(longest).toBeGreaterThan(20_000);
  });

  it('streams a 100 MB target lazily', () => {
    const started = performance.now();
    let n = 0;
    for (const line of generateSessionLines({ targetBytes: 100_000_000 })) {
      expect(line.length).toBeGreaterThan(0);
      if (++n === 200) break;
    }
    expect(n).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
