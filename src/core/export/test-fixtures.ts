/**
 * Fixtures for the exporter tests: contexts built from short specs or single entries, a summary
 * standing in for a compacted head, the real Claude Code sample as a context, and the shape of an
 * entry that a round trip through an exporter and the importer must keep.
 */
import { readFileSync } from 'node:fs';
import { linkEntries, makeEntries, type Spec } from '../compaction/testing.ts';
import type { ContextEntry } from '../compaction/types.ts';
import { importText } from '../import/run.ts';
import type { Block, Entry, Role } from '../journal/entry.ts';

/** Journal entries from specs (tool ids linked), each as it stands in a context. */
export function journal(specs: Spec[]): ContextEntry[] {
  return linkEntries(makeEntries(specs)).map((entry) => ({ role: entry.role, entry, origin: 'journal' }));
}

/** A summary that replaces `count` entries (ids `x0` to `x<count-1>`). */
export function summary(text: string, count: number): ContextEntry {
  const entry: Entry = { id: 'sum-1', index: 0, parentId: null, role: 'summary', kind: 'message', blocks: [{ type: 'text', text }], sourceType: 'summary', line: 0 };
  return { role: 'summary', entry, origin: 'summary', replaces: { fromId: 'x0', toId: `x${count - 1}`, count } };
}

/** One journal entry with the given blocks. */
export function entry(id: string, role: Role, blocks: Block[]): ContextEntry {
  return { role, entry: { id, index: 0, parentId: null, role, kind: 'message', blocks, sourceType: 'test', line: 1 }, origin: 'journal' };
}

/** The inputs of the session's Bash, Grep and Edit calls (each exporter test picks its own). */
export interface SessionInputs {
  bash: Record<string, unknown>;
  grep: Record<string, unknown>;
  edit: Record<string, unknown>;
}

/**
 * A short coding session behind a system prompt: a config read, a test run and a search in
 * parallel (the search failed), then an edit; a summary stands where the compacted head was (in
 * place of the first user entry). Call ids are `${prefix}1` to `${prefix}4`.
 */
export function codingSession(prefix: string, inputs: SessionInputs): ContextEntry[] {
  const body = journal([
    { system: 'You are a coding agent.' },
    { user: 'placeholder' },
    { assistant: 'Reading the config.', calls: [{ id: `${prefix}1`, name: 'Read', input: { path: 'src/config.ts' } }] },
    { tool: 'export const port = 8080;', callId: `${prefix}1` },
    { assistant: '', calls: [{ id: `${prefix}2`, name: 'Bash', input: inputs.bash }, { id: `${prefix}3`, name: 'Grep', input: inputs.grep }] },
    { tool: '12 passed', callId: `${prefix}2` },
    { tool: 'no matches', callId: `${prefix}3`, error: true },
    { assistant: 'The port is 8080 and the tests pass.' },
    { user: 'Thanks, now add a health check.' },
    { assistant: 'Adding it.', calls: [{ id: `${prefix}4`, name: 'Edit', input: inputs.edit }] },
    { tool: 'ok', callId: `${prefix}4` },
    { assistant: 'Done.' },
  ]);
  body[1] = summary('The user asked to inspect the server config.', 12);
  return body;
}

/** The real Claude Code sample's messages (101 tool calls) as a context. */
export function claudeSampleContext(): ContextEntry[] {
  const text = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8');
  return importText(text)
    .entries.filter((item) => item.kind === 'message')
    .map((item) => ({ role: item.role, entry: item, origin: 'journal' }));
}

/** What a round trip must keep of an entry: role (a summary is sent as the user), texts, calls and results. */
export interface EntryShape {
  role: string;
  texts: string[];
  calls: Array<{ id: string; name: string; input: unknown }>;
  /** `error` only when asked for: a format without an error flag on results loses it. */
  results: Array<{ id: string; text: string; error?: boolean }>;
}

/** The shape of `entry`, read as `role`; with `errors`, each result keeps its error flag. */
export function shapeOf(entry: Entry, options: { role?: Role; errors?: boolean } = {}): EntryShape {
  const role = options.role ?? entry.role;
  return {
    role: role === 'summary' ? 'user' : role,
    texts: entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])),
    calls: entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [{ id: block.callId, name: block.name, input: block.input }] : [])),
    results: entry.blocks.flatMap((block) => {
      if (block.type !== 'tool_result') return [];
      const text = block.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      return [options.errors ? { id: block.callId, text, error: block.isError } : { id: block.callId, text }];
    }),
  };
}
