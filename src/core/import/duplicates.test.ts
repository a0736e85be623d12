/**
 * What an import does with repeated data is defined and reported: a repeated entry id or uuid names
 * both lines and says what was kept; a JSON key written twice in one line keeps its last value, as
 * JSON.parse (and every JSON reader Foldlab's formats come from) does.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { importText } from './run.ts';

const PI_V3 = readFileSync('public/samples/pi/v3-small.jsonl', 'utf8').trimEnd().split('\n');
const DAG = readFileSync('public/samples/claude-code/dag_compact_after_rewind.jsonl', 'utf8');
const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8').trimEnd().split('\n');

describe('duplicates in an import', () => {
  it('a Claude Code line repeating an earlier uuid is skipped and reported with both line numbers', () => {
    const clean = importText(CLAUDE.join('\n'));
    const n = CLAUDE.findIndex((line) => (JSON.parse(line) as { type?: string }).type === 'user');
    const copy = JSON.parse(CLAUDE[n]!) as { uuid: string; message: { content: unknown } };
    copy.message.content = 'edited copy';
    const result = importText([...CLAUDE, JSON.stringify(copy)].join('\n'));
    expect(result.entries.length).toBe(clean.entries.length);
    expect(result.issues.filter((issue) => issue.kind === 'duplicate')).toEqual([
      { line: CLAUDE.length + 1, kind: 'duplicate', message: `repeats the uuid ${JSON.stringify(copy.uuid)} of line ${n + 1}; the first line is kept and this one skipped` },
    ]);
    expect(JSON.stringify(result.entries)).not.toContain('edited copy');
  });

  it('a Claude Code line whose first copy was malformed and skipped is kept: the skipped line is not the first of its uuid', () => {
    const clean = importText(CLAUDE.join('\n'));
    const n = CLAUDE.findIndex((line) => (JSON.parse(line) as { type?: string }).type === 'assistant');
    const broken = JSON.parse(CLAUDE[n]!) as Record<string, unknown>;
    delete broken.message;
    const lines = [...CLAUDE.slice(0, n), JSON.stringify(broken), ...CLAUDE.slice(n)];
    const result = importText(lines.join('\n'));
    expect(result.issues.map((issue) => [issue.line, issue.kind])).toEqual([[n + 1, 'malformed']]);
    expect(result.entries.length).toBe(clean.entries.length);
    expect(result.entries.some((entry) => entry.line === n + 2)).toBe(true);
  });

  it('a damaged copy whose type is unreadable does not make the intact line after it a duplicate (fuzz counterexample)', () => {
    // dag_compact_after_rewind.jsonl with line 3 duplicated and the copy's "type" key damaged: a space
    // flipped in, or a U+2028 inserted (still valid JSON, and not a line break). The copy is no
    // conversation line; the intact line 4 is the first of its uuid and imports.
    const lines = DAG.trimEnd().split('\n');
    const clean = importText(lines.join('\n'));
    for (const damaged of [lines[2]!.replace('"type"', '" ype"'), lines[2]!.replace('"type"', '"ty\u2028pe"')]) {
      expect(JSON.parse(damaged)).toHaveProperty('uuid', 'b1u');
      const result = importText([...lines.slice(0, 2), damaged, ...lines.slice(2)].join('\n'));
      expect(result.issues).toEqual([]);
      expect(result.entries.map((entry) => entry.id)).toEqual(clean.entries.map((entry) => entry.id));
      expect(result.entries.find((entry) => entry.id === 'b1u')?.line).toBe(4);
    }
  });

  it('an intact copy of a line is still reported as a duplicate of the first', () => {
    const lines = DAG.trimEnd().split('\n');
    const result = importText([...lines.slice(0, 3), lines[2]!, ...lines.slice(3)].join('\n'));
    expect(result.issues).toEqual([
      { line: 4, kind: 'duplicate', message: 'repeats the uuid "b1u" of line 3; the first line is kept and this one skipped' },
    ]);
  });

  it('a U+2028 inside a JSON string is text, not a line break', () => {
    const lines = DAG.trimEnd().split('\n');
    const withSeparator = lines[2]!.replace('First attempt', 'First\u2028attempt');
    const result = importText([...lines.slice(0, 2), withSeparator, ...lines.slice(3)].join('\n'));
    expect(result.issues).toEqual([]);
    expect(JSON.stringify(result.entries.find((entry) => entry.id === 'b1u')?.blocks)).toContain('First\u2028attempt');
    expect(result.entries.find((entry) => entry.id === 'b1a')?.line).toBe(4);
  });

  it('a pi entry id used twice keeps both entries in file order and reports the second with the first line', () => {
    const n = PI_V3.findIndex((line) => (JSON.parse(line) as { type?: string }).type === 'message');
    const first = JSON.parse(PI_V3[n]!) as { id: string; message: { content: unknown } };
    const copy = { ...first, message: { ...first.message, content: [{ type: 'text', text: 'second use of the id' }] } };
    const result = importText([...PI_V3, JSON.stringify(copy)].join('\n'));
    const duplicates = result.issues.filter((issue) => issue.kind === 'duplicate');
    expect(duplicates).toEqual([
      { line: PI_V3.length + 1, kind: 'duplicate', message: `entry id ${JSON.stringify(first.id)} was already used on line ${n + 1}; both entries are kept, this one as ${JSON.stringify(`${first.id}#2`)}` },
    ]);
    const kept = result.entries.filter((entry) => entry.id === first.id || entry.id === `${first.id}#2`);
    expect(kept.map((entry) => entry.line)).toEqual([n + 1, PI_V3.length + 1]);
    expect(JSON.stringify(kept[1]!.blocks)).toContain('second use of the id');
  });

  it('a key written twice in one line keeps its last value (JSON.parse semantics), in every format', () => {
    const pi = [...PI_V3, '{"type":"message","id":"dup-key","parentId":null,"message":{"role":"user","content":[{"type":"text","text":"first"}],"content":[{"type":"text","text":"last"}]}}'];
    const piEntry = importText(pi.join('\n')).entries.find((entry) => entry.id === 'dup-key')!;
    expect(piEntry.blocks).toEqual([{ type: 'text', text: 'last' }]);
    const claude = [...CLAUDE];
    const line = JSON.parse(claude[claude.length - 1]!) as Record<string, unknown>;
    const doubled = JSON.stringify({ ...line, uuid: 'not-this-one' }).replace(/\}$/, `,"uuid":"dup-key-last"}`);
    const claudeResult = importText([...claude.slice(0, -1), doubled].join('\n'));
    const ids = claudeResult.entries.map((entry) => entry.id);
    expect(ids.some((id) => id.startsWith('dup-key-last'))).toBe(true);
    expect(ids.some((id) => id.startsWith('not-this-one'))).toBe(false);
  });
});
