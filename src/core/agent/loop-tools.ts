/**
 * The two tools the loop adds to the folder tools: `query_history` (F7, explicit recall: search
 * the branch's entries that are no longer verbatim in the context — summarized, dropped or
 * rewritten — and return bounded excerpts) and `summarize_context` (F14, seed 003: the model asks
 * for a compaction; the loop runs it before the next model call).
 */
import type { ContextEntry } from '../compaction/types.ts';
import { entryText, type Entry } from '../journal/entry.ts';
import type { AgentToolSpec, ToolOutcome } from './types.ts';

export const QUERY_HISTORY = 'query_history';
export const SUMMARIZE_CONTEXT = 'summarize_context';

/** Entries returned by one query when the model asks for no limit. Default 5. */
export const QUERY_DEFAULT_LIMIT = 5;
/** Entries one query returns at most. Default 10. */
export const QUERY_MAX_LIMIT = 10;
/** Characters of one excerpt, around the first match. Default 400. Unit: chars. */
export const EXCERPT_CHARS = 400;
/** Characters of a whole answer at most. Default 4,000. Unit: chars. */
export const QUERY_MAX_CHARS = 4000;

export const QUERY_HISTORY_SPEC: AgentToolSpec = {
  name: QUERY_HISTORY,
  // What the model reads about it: prompts/tool-query-history.md (describeTool).
  description: '',
  promptVars: { default_limit: String(QUERY_DEFAULT_LIMIT) },
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: 'integer', minimum: 1, maximum: QUERY_MAX_LIMIT },
    },
    required: ['query'],
  },
};

export const SUMMARIZE_CONTEXT_SPEC: AgentToolSpec = {
  name: SUMMARIZE_CONTEXT,
  // What the model reads about it: prompts/tool-summarize-context.md (describeTool).
  description: '',
  parameters: {
    type: 'object',
    properties: {
      instruction: { type: 'string' },
    },
  },
};

function field(input: unknown, name: string): unknown {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
}

/** The instruction the model gave `summarize_context`, if any. */
export function summarizeInstruction(input: unknown): string | undefined {
  const value = field(input, 'instruction');
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function terms(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}_./-]+/u).filter((term) => term.length >= 2))];
}

function label(entry: Entry): string {
  const result = entry.blocks.find((block) => block.type === 'tool_result');
  const call = entry.blocks.find((block) => block.type === 'tool_call');
  if (result?.type === 'tool_result') return `${entry.id} tool result${result.toolName ? ` ${result.toolName}` : ''}`;
  if (call?.type === 'tool_call') return `${entry.id} ${entry.role} calling ${call.name}`;
  return `${entry.id} ${entry.role}`;
}

function excerpt(text: string, lower: string, words: readonly string[]): string {
  const at = Math.min(...words.map((word) => lower.indexOf(word)).filter((i) => i >= 0));
  const start = Math.max(0, at - Math.floor(EXCERPT_CHARS / 3));
  const end = Math.min(text.length, start + EXCERPT_CHARS);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/**
 * `query_history` over `messages` (the branch) minus what `context` holds verbatim. Entries are
 * ranked by how many query words they contain, then in order.
 */
export function queryHistory(input: unknown, messages: readonly Entry[], context: readonly ContextEntry[]): ToolOutcome {
  const query = field(input, 'query');
  if (typeof query !== 'string' || terms(query).length === 0) {
    return { ok: false, text: '', error: 'query_history needs a "query" with at least one word of two or more characters.' };
  }
  const rawLimit = field(input, 'limit');
  const limit = typeof rawLimit === 'number' && Number.isFinite(rawLimit) ? Math.min(QUERY_MAX_LIMIT, Math.max(1, Math.floor(rawLimit))) : QUERY_DEFAULT_LIMIT;
  const verbatim = new Set(context.flatMap((item) => (item.origin === 'journal' ? [item.entry.id] : [])));
  const hidden = messages.filter((entry) => entry.kind === 'message' && !verbatim.has(entry.id));
  if (hidden.length === 0) {
    return { ok: true, text: 'Nothing has been summarized or left out yet: the whole conversation is in your context.' };
  }
  const words = terms(query);
  const hits = hidden
    .map((entry, order) => {
      const text = entryText(entry);
      const lower = text.toLowerCase();
      return { entry, text, lower, order, score: words.filter((word) => lower.includes(word)).length };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  if (hits.length === 0) {
    return { ok: true, text: `No match for "${query}" in the ${hidden.length} entries that are no longer in your context.` };
  }
  const shown = hits.slice(0, limit);
  let text = `${hits.length} of the ${hidden.length} entries no longer in your context match "${query}"; ${shown.length} shown, best first:`;
  for (const hit of shown) {
    const part = `\n\n[${label(hit.entry)}]\n${excerpt(hit.text, hit.lower, words.filter((word) => hit.lower.includes(word)))}`;
    if (text.length + part.length > QUERY_MAX_CHARS) {
      text += `\n\n(${shown.length - shown.indexOf(hit)} more not shown: the answer is capped at ${QUERY_MAX_CHARS} characters; ask a narrower query.)`;
      break;
    }
    text += part;
  }
  return { ok: true, text };
}
