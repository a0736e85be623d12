/**
 * The e2e's whole demo session (tools, an @file mention, an overflow compaction, summarize_context,
 * edit and resend, a move back with its branch summary) run by the live host in Node, its journal
 * exported as the Live tab does and read back by Foldlab's pi importer: compared entry by entry
 * (tree, role, text, tool calls and results, compaction and branch-summary records).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toPiSessionJsonl } from '../../core/agent/pi-export.ts';
import type { AgentEvent } from '../../core/agent/types.ts';
import { importText } from '../../core/import/run.ts';
import type { Block, Entry } from '../../core/journal/entry.ts';
import type { LiveSessionConfig } from '../../db/live-session-row.ts';
import { liveFolderSnapshot } from '../../worker/live/test-fixtures.ts';
import { LiveHost } from '../../worker/live/live-host.ts';

const SCRIPT = JSON.parse(readFileSync('public/samples/live/demo-script.json', 'utf8')) as unknown;
const config: LiveSessionConfig = { model: { kind: 'scripted', name: 'demo-script.json', script: SCRIPT }, strategy: 'pi', options: { keepRecentTokens: '400' }, contextWindow: 200_000, counter: 'chars4', gitignore: true };

function text(blocks: readonly Block[]): string {
  return blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/** What must survive the round trip, per entry; tool call ids are compared through the calls they link. */
function shape(entry: Entry, calls: ReadonlyMap<string, string>) {
  return {
    id: entry.id,
    parentId: entry.parentId,
    role: entry.role,
    kind: entry.kind,
    text: text(entry.blocks),
    thinking: entry.blocks.flatMap((block) => (block.type === 'thinking' ? [block.text] : [])),
    toolCalls: entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [{ name: block.name, input: block.input }] : [])),
    toolResults: entry.blocks.flatMap((block) =>
      block.type === 'tool_result' ? [{ call: calls.get(block.callId), toolName: block.toolName, isError: block.isError ?? false, text: text(block.content) }] : [],
    ),
    marker: entry.marker && {
      source: entry.marker.source,
      ...(entry.marker.firstKeptEntryId !== undefined ? { firstKeptEntryId: entry.marker.firstKeptEntryId } : {}),
      ...(entry.marker.tokensBefore !== undefined ? { tokensBefore: entry.marker.tokensBefore } : {}),
      ...(entry.marker.fromId !== undefined ? { fromId: entry.marker.fromId } : {}),
    },
  };
}

/** Each tool call id as "<entry id>#<position among its calls>", so results compare by the call they answer. */
function callNames(entries: readonly Entry[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of entries) {
    entry.blocks.filter((block) => block.type === 'tool_call').forEach((block, i) => block.type === 'tool_call' && out.set(block.callId, `${entry.id}#${i}`));
  }
  return out;
}

describe('the demo live session exported as pi JSONL and imported back', () => {
  it('has the same entries: tree, roles, text, tool calls and results, compaction and branch summary', async () => {
    const host = new LiveHost();
    const journal: Entry[] = [];
    const onEvent = (event: AgentEvent) => event.type === 'entry' && journal.push(event.entry);
    await host.start({ id: 's', folder: liveFolderSnapshot(), config, model: { kind: 'scripted', script: SCRIPT }, journal: [] }, onEvent);
    for (const request of ['What is in this folder?', 'Explain @src/parser.py', 'Find every TODO', 'Summarize what we did']) {
      expect((await host.send('s', request)).status).toBe('done');
    }
    const firstLeaf = host.leaf('s')!;
    const first = journal.find((entry) => entry.role === 'user')!;
    expect((await host.editAndResend('s', first.id, 'What is in the notes folder?')).status).toBe('done');
    await host.switchBranch('s', firstLeaf);

    const sources = journal.flatMap((entry) => (entry.marker ? [entry.marker.source] : []));
    // The overflow's compaction; leaving the first branch (edit and resend), then the second (the move back).
    expect(sources).toEqual(['pi.compaction', 'pi.branch_summary', 'pi.branch_summary']);
    expect(journal.some((entry) => entry.blocks.some((block) => block.type === 'tool_call' && block.name === 'summarize_context'))).toBe(true);
    expect(journal.filter((entry) => entry.role === 'tool').length).toBeGreaterThan(4);
    expect(journal.some((entry) => entry.blocks.some((block) => block.type === 'thinking'))).toBe(true);

    // As the Live tab's Export does (exportLiveSession), then as the library imports a file.
    const jsonl = toPiSessionJsonl(journal, { sessionId: 's', createdAt: 1_700_000_000_000, title: 'Live: live-folder', cwd: 'live-folder' });
    const back = importText(jsonl, { fileName: 'live-folder.pi.jsonl' });
    expect(back.format).toBe('pi');
    expect(back.issues).toEqual([]);
    expect(back.entries).toHaveLength(journal.length);
    const before = callNames(journal);
    const after = callNames(back.entries);
    back.entries.forEach((entry, i) => expect(shape(entry, after), `entry ${i}`).toEqual(shape(journal[i]!, before)));
  });
});
