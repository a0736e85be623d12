// The offline summarizer end to end on the real Claude Code sample: the pi / layered / Augment
// update flows run by hand over consecutive slices must keep every modified file (computed from the
// raw JSONL, not by our classifier) and every constraint of the first slice; plus determinism,
// length caps, abort, the Summarizer contract, and a speed measurement (reported, not asserted).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SummaryRequest } from '../compaction/summarizer.ts';
import { importText } from '../import/run.ts';
import type { Entry } from '../journal/entry.ts';
import { clipLine, extractFacts, oneLine } from './extract.ts';
import { MEMORY_MARKER } from './formats.ts';
import { createOfflineSummarizer, offlineSummaryText } from './offline.ts';

const SAMPLE_PATH = 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl';
const RAW = readFileSync(SAMPLE_PATH, 'utf8');
const ENTRIES: readonly Entry[] = importText(RAW).entries.filter((entry) => entry.kind !== 'event' && !entry.flags?.sidechain);
const TEMPLATES = ['pi-summary', 'pi-update-summary', 'pi-turn-prefix', 'augment-summary', 'augment-memories-compression', 'layered-archived-summary', 'budget-memory-block'];

/**
 * tool_use id -> file path, for every file-writing tool call in the raw JSONL that the user did not
 * decline (a declined write wrote nothing), independent of tool-actions.ts.
 */
function rawWrites(): Map<string, string> {
  const writes = new Map<string, string>();
  const declined = new Set<string>();
  for (const line of RAW.split('\n')) {
    if (!line.trim()) continue;
    const record = JSON.parse(line) as { message?: { content?: unknown } };
    const content = record.message?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as Array<{ type?: string; id?: string; tool_use_id?: string; name?: string; input?: Record<string, unknown>; content?: unknown }>) {
      if (block.type === 'tool_result' && block.tool_use_id && typeof block.content === 'string' && block.content.startsWith("The user doesn't want to proceed")) declined.add(block.tool_use_id);
      if (block.type !== 'tool_use' || !block.id || !['Edit', 'MultiEdit', 'Write', 'NotebookEdit'].includes(block.name ?? '')) continue;
      const path = block.input?.file_path ?? block.input?.notebook_path;
      if (typeof path === 'string') writes.set(block.id, path);
    }
  }
  for (const id of declined) writes.delete(id);
  return writes;
}

function modifiedIn(entries: readonly Entry[]): string[] {
  const writes = rawWrites();
  const paths = new Set<string>();
  for (const entry of entries) for (const block of entry.blocks) if (block.type === 'tool_call' && writes.has(block.callId)) paths.add(writes.get(block.callId)!);
  return [...paths].sort();
}

function slices(entries: readonly Entry[], count: number): Entry[][] {
  const size = Math.ceil(entries.length / count);
  return Array.from({ length: count }, (_, k) => entries.slice(k * size, (k + 1) * size));
}

/** The real session states no rules, so slice 1 also gets one user message that does (a new entry; the journal is untouched). */
function withConstraints(slice: readonly Entry[]): Entry[] {
  const first = slice[0]!;
  const extra: Entry = {
    id: 'extra-constraints', index: first.index, parentId: first.parentId, role: 'user', kind: 'message', sourceType: 'test', line: first.line,
    ...(first.timestamp !== undefined ? { timestamp: first.timestamp } : {}),
    blocks: [{ type: 'text', text: 'Some ground rules. Never edit files outside claude_code_log/ and test/. Always run the unit tests with uv before you say it works.\nDon\'t add new dependencies. 不要修改 pyproject.toml。' }],
  };
  return [extra, ...slice];
}

function request(promptId: string, entries: readonly Entry[], extra: Partial<SummaryRequest> = {}): SummaryRequest {
  return { taskId: 't', promptId, prompt: `prompt for ${promptId}`, entries, serialized: '', vars: {}, signal: new AbortController().signal, ...extra };
}

/** Summarize slice 1 with `first`, then slices 2 and 3 with `update` passing the previous text. */
async function threeCompactions(first: string, update: string, parts: Entry[][], maxTokens?: number): Promise<string> {
  const summarizer = createOfflineSummarizer();
  let previous: string | undefined;
  for (let k = 0; k < 3; k++) {
    const response = await summarizer.summarize(request(k === 0 ? first : update, parts[k]!, { ...(previous !== undefined ? { previousSummary: previous } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}) }));
    previous = response.text;
  }
  return previous!;
}

describe('quality: three successive compactions of the real Claude Code sample', () => {
  const parts = slices(ENTRIES, 4);
  parts[0] = withConstraints(parts[0]!);
  const summarized = parts.slice(0, 3).flat();
  const modified = modifiedIn(summarized);
  const constraints = extractFacts(parts[0]!).constraints;
  const requests = extractFacts(summarized).requests;

  it('the sample has what the check needs', () => {
    // 5 paths are written to, one of them only by a Write the user declined.
    expect(modified.length).toBeGreaterThanOrEqual(4);
    expect(constraints).toEqual([
      'Never edit files outside claude_code_log/ and test/.',
      'Always run the unit tests with uv before you say it works.',
      "Don't add new dependencies.",
      '不要修改 pyproject.toml。',
      // Typed right after rejecting the Write of a throwaway test script (gold: line 74).
      "I'd actually love that test to be saved a permanent unit test",
    ]);
    expect(requests.length).toBeGreaterThanOrEqual(4);
  });

  const flows: Array<[string, string, string]> = [
    ['pi', 'pi-summary', 'pi-update-summary'],
    ['layered', 'layered-archived-summary', 'layered-archived-summary'],
    ['augment (nested)', 'augment-summary', 'augment-summary'],
  ];
  for (const [name, first, update] of flows) {
    it(`${name}: every modified file, constraint and request survives`, async () => {
      // 13107 tokens: pi's default budget for a summary (0.8 x 16384 reserve).
      const text = await threeCompactions(first, update, parts, 13_107);
      for (const path of modified) expect(text, path).toContain(path);
      for (const constraint of constraints) expect(text, constraint).toContain(oneLine(constraint));
      for (const asked of requests) expect(text, asked).toContain(clipLine(asked, 600));
    });

    it(`${name}: under a tight cap files and constraints still survive`, async () => {
      const text = await threeCompactions(first, update, parts, 700);
      for (const path of modified) expect(text, path).toContain(path);
      for (const constraint of constraints) expect(text, constraint).toContain(oneLine(constraint));
      expect(text.length).toBeLessThanOrEqual(700 * 4 + 64);
    });
  }

  it('pi: the update path keeps read files and the last request of the newest slice', async () => {
    const text = await threeCompactions('pi-summary', 'pi-update-summary', parts);
    const read = extractFacts(summarized).files.read.filter((path) => !modified.includes(path));
    for (const path of read) expect(text).toContain(path);
    expect(text).toContain(`Last user request: ${clipLine(extractFacts(parts[2]!).lastRequest ?? '', 1500)}`);
    expect(text.match(/^<modified-files>$/gm)).toHaveLength(1);
  });

  it('pi: a fourth update over the last slice holds every file the session modified', async () => {
    const summarizer = createOfflineSummarizer();
    let previous: string | undefined;
    for (const [k, part] of parts.entries()) {
      previous = (await summarizer.summarize(request(k === 0 ? 'pi-summary' : 'pi-update-summary', part, previous !== undefined ? { previousSummary: previous } : {}))).text;
    }
    for (const path of modifiedIn(ENTRIES)) expect(previous).toContain(path);
  });
});

describe('Summarizer contract', () => {
  it('has id and label, reports model and chars/4 usage', async () => {
    const summarizer = createOfflineSummarizer();
    expect(summarizer.id).toBe('offline');
    expect(summarizer.label).toBe('Offline (no model)');
    const response = await summarizer.summarize(request('pi-summary', ENTRIES.slice(0, 20), { prompt: 'x'.repeat(401) }));
    expect(response.model).toBe('offline');
    expect(response.usage).toEqual({ input: 101, output: Math.ceil(response.text.length / 4) });
  });

  it('rejects with the signal reason when aborted', async () => {
    const summarizer = createOfflineSummarizer();
    const controller = new AbortController();
    const reason = new Error('stop now');
    controller.abort(reason);
    await expect(summarizer.summarize(request('pi-summary', ENTRIES, { signal: controller.signal }))).rejects.toBe(reason);
    const other = new AbortController();
    other.abort('plain reason');
    await expect(summarizer.summarize(request('augment-summary', ENTRIES, { signal: other.signal }))).rejects.toBe('plain reason');
  });

  it('never throws: unknown prompt ids get the pi summary, empty input gives an empty template', async () => {
    const summarizer = createOfflineSummarizer();
    const unknown = await summarizer.summarize(request('no-such-prompt', ENTRIES.slice(0, 30)));
    expect(unknown.text.startsWith('## Goal\n')).toBe(true);
    for (const id of TEMPLATES) {
      const response = await summarizer.summarize(request(id, []));
      expect(typeof response.text).toBe('string');
    }
    expect((await summarizer.summarize(request('budget-memory-block', []))).text).toBe(MEMORY_MARKER);
  });
});

describe('summaries inside the entries', () => {
  it('merges a summary entry found in the range like a previous summary', () => {
    const previous = offlineSummaryText(request('pi-summary', ENTRIES.slice(0, 60)));
    const marker: Entry = { id: 'c1', index: 0, parentId: null, role: 'summary', kind: 'compaction', sourceType: 'test', line: 1, blocks: [{ type: 'text', text: previous }] };
    const text = offlineSummaryText(request('pi-update-summary', [marker, ...ENTRIES.slice(60, 120)]));
    for (const path of modifiedIn(ENTRIES.slice(0, 120))) expect(text).toContain(path);
    for (const asked of extractFacts(ENTRIES.slice(0, 60)).requests) expect(text).toContain(clipLine(asked, 600));
  });
});

describe('determinism and caps', () => {
  it('same input, same text, for every template; entries are not touched', () => {
    const before = structuredClone(ENTRIES);
    for (const id of TEMPLATES) {
      const a = offlineSummaryText(request(id, ENTRIES));
      const b = offlineSummaryText(request(id, structuredClone(ENTRIES)));
      expect(a, id).toBe(b);
    }
    expect(ENTRIES).toEqual(before);
  });

  it('respects maxTokens approximately by dropping least important lines, never the file lists', () => {
    const modified = modifiedIn(ENTRIES);
    for (const id of ['pi-summary', 'augment-summary', 'layered-archived-summary', 'pi-turn-prefix']) {
      const full = offlineSummaryText(request(id, ENTRIES));
      for (const maxTokens of [400, 1000, 3000]) {
        const text = offlineSummaryText(request(id, ENTRIES, { maxTokens }));
        expect(text.length, `${id} @ ${maxTokens}`).toBeLessThanOrEqual(Math.max(maxTokens * 4, 0) + 64);
        if (full.length > maxTokens * 4) expect(text).toContain('more omitted to fit the length limit');
        if (id !== 'pi-turn-prefix') for (const path of modified) expect(text, `${id} ${path}`).toContain(path);
      }
      // Far below the file lists: the lists stay, everything droppable goes.
      const tiny = offlineSummaryText(request(id, ENTRIES, { maxTokens: 10 }));
      for (const path of modified) expect(tiny).toContain(path);
    }
  });

  it('budget memory block respects vars.max_lines and vars.max_chars', () => {
    const text = offlineSummaryText(request('budget-memory-block', ENTRIES, { vars: { max_lines: '5', max_chars: '600' } }));
    const lines = text.split('\n');
    expect(lines[0]).toBe(MEMORY_MARKER);
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(text.length).toBeLessThanOrEqual(600);
    // The user's constraints rank above the file list; with room for both, both are kept.
    expect(text).toContain('- constraint:');
    expect(offlineSummaryText(request('budget-memory-block', ENTRIES, { vars: { max_lines: '8', max_chars: '1200' } }))).toContain('- files modified:');
  });

  it('memory compression merges to vars.target_lines', () => {
    const memories = Array.from({ length: 30 }, (_, i) => `- memory ${i % 10} about topic ${i % 7}`).join('\n');
    const text = offlineSummaryText(request('augment-memories-compression', [], { vars: { memories, target_lines: '6' } }));
    expect(text.split('\n')).toHaveLength(6);
    for (let i = 0; i < 10; i++) expect(text).toMatch(new RegExp(`memory ${i} about|, ${i} about`));
  });

  it('memory compression reads the memories inside their prompt tags, never the tags (A11)', () => {
    const memories = '<memories>\n- Uses pnpm\n- Uses pnpm.\n- Deadline Friday\n- Likes tea\n- Likes green tea\n</memories>';
    const text = offlineSummaryText(request('augment-memories-compression', [], { vars: { memories, recent_memories: '<recent_memories>\n- Deadline Friday at noon\n</recent_memories>', target_lines: '5' } }));
    expect(text).toBe('- Uses pnpm\n- Likes tea\n- Likes green tea');
  });
});

describe('speed', () => {
  it('summarizes the whole 1 MB sample quickly (measured, reported)', () => {
    offlineSummaryText(request('pi-summary', ENTRIES));
    const times: Record<string, number> = {};
    for (const id of TEMPLATES) {
      const start = performance.now();
      for (let i = 0; i < 5; i++) offlineSummaryText(request(id, ENTRIES));
      times[id] = Math.round(((performance.now() - start) / 5) * 10) / 10;
    }
    console.log(`offline summarizer on ${ENTRIES.length} entries (${(RAW.length / 1e6).toFixed(2)} MB sample), ms per call:`, times);
    expect(Object.keys(times)).toHaveLength(TEMPLATES.length);
  });
});
