/**
 * L1 context assembly for one model call, in the layered seed's order (002 §A1): the system
 * prompt and the tool definitions, the folder's CODE_LAW.md (L2, never in the history), the
 * history (archived summaries included), the current user input with this turn's steps, and a
 * todo recap when the branch has a todo list. For the layered strategy the current turn is a
 * ReAct scratchpad (L2, §A2): its observations are full, older turns' tool results reach the
 * model in their compressed history form (L3). Tool outputs and file contents are data: each
 * reaches the model inside a tag it cannot close (the summarizer's `wrapTranscript`); the journal
 * keeps the raw text. Every tool call sent has its result and every result its call.
 */
import { getPrompt, renderTemplate, type PromptLibrary } from '../compaction/prompts.ts';
import { wrapTranscript } from '../compaction/serialize.ts';
import type { ContextEntry } from '../compaction/types.ts';
import { entryText, type Block, type Entry, type Role } from '../journal/entry.ts';
import { callsById, compressEntry, compressToolResult, toolKind, type CompressionLimits } from '../strategies/layered/tool-compression.ts';
import { opensTurn } from '../strategies/layered/turns.ts';
import type { BranchView } from './branch-context.ts';
import type { CodeLaw } from './code-law.ts';
import type { AgentToolSpec, ModelRequest } from './types.ts';

export interface AssembleArgs {
  systemPrompt: string;
  /** The prompt files (the CODE_LAW framing is one). */
  prompts: PromptLibrary;
  tools: readonly AgentToolSpec[];
  codeLaw?: CodeLaw;
  /** The history part (`historyContext`): last compaction's context plus the entries since. */
  history: readonly ContextEntry[];
  view: BranchView;
  /** Set for the layered strategy: older turns' tool results are sent in their L3 form. */
  scratchpadLimits?: CompressionLimits;
  /** The compressed form of each journal entry already made (null: nothing to compress), kept by the session. */
  compressed?: WeakMap<Entry, Entry | null>;
  signal: AbortSignal;
}

export interface Assembled {
  request: ModelRequest;
  /** The context before tool outputs were fenced: the same entries, cached counts apply (the tags add a few tokens). */
  counted: ContextEntry[];
  /** Tool calls or results left out because their partner was not in the context. */
  unpaired: number;
}

function madeEntry(id: string, role: Role, text: string, sourceType: string, injected = false): Entry {
  return { id, index: 0, parentId: null, role, kind: 'message', blocks: [{ type: 'text', text }], sourceType, line: 0, ...(injected ? { flags: { injected: true } } : {}) };
}

/** Prompt files of L2's framing: the rules' introduction (prompts/code-law.md) and the note on a cut file. */
export const CODE_LAW_PROMPT_ID = 'code-law';
export const CODE_LAW_TRUNCATED_PROMPT_ID = 'code-law-truncated';

/** L2 of the layered seed: the project's rules, delimited as data, framed by prompts/code-law.md. */
export function codeLawItem(law: CodeLaw, prompts: PromptLibrary): ContextEntry {
  const note = law.truncated ? `\n${getPrompt(prompts, CODE_LAW_TRUNCATED_PROMPT_ID).trim()}` : '';
  const text = renderTemplate(getPrompt(prompts, CODE_LAW_PROMPT_ID), { name: law.name, rules: wrapTranscript(law.text, 'code-law'), note }).trim();
  return { role: 'system', entry: madeEntry('code-law', 'system', text, 'agent.code-law'), origin: 'synthetic' };
}

/** The recap of the branch's latest todo list (TodoWrite and the like), or undefined. */
export function todoRecap(messages: readonly Entry[]): string | undefined {
  const calls = callsById(messages);
  for (let i = messages.length - 1; i >= 0; i--) {
    const blocks = messages[i]!.blocks;
    for (let b = blocks.length - 1; b >= 0; b--) {
      const block = blocks[b]!;
      if (block.type !== 'tool_call' || toolKind(block.name) !== 'todo') continue;
      const result = { type: 'tool_result' as const, callId: block.callId, content: [{ type: 'text' as const, text: '' }], isError: false };
      const data: unknown = (JSON.parse(compressToolResult(result, calls.get(block.callId)).text) as { data?: unknown }).data;
      const recap = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).recap : undefined;
      return typeof recap === 'string' && recap ? recap : undefined;
    }
  }
  return undefined;
}

/** L2 scratchpad: tool results before the current turn, in their compressed history form. */
function compressOlderTurns(items: readonly ContextEntry[], view: BranchView, limits: CompressionLimits, cache: WeakMap<Entry, Entry | null>): ContextEntry[] {
  let start = view.messages.length;
  for (let i = view.messages.length - 1; i >= 0; i--) {
    if (opensTurn(view.messages[i]!)) {
      start = i;
      break;
    }
  }
  const current = new Set(view.messages.slice(start).map((entry) => entry.id));
  const calls = callsById(view.messages);
  return items.map((item) => {
    if (item.origin !== 'journal' || current.has(item.entry.id)) return item;
    let compressed = cache.get(item.entry);
    if (compressed === undefined) {
      const made = compressEntry(item.entry, calls, limits)?.entry;
      // A tiny observation wrapped in JSON would grow: it stays as it is (as the layered plan does).
      compressed = made && entryText(made).length < entryText(item.entry).length ? made : null;
      cache.set(item.entry, compressed);
    }
    return compressed ? { role: item.role, entry: compressed, origin: 'compressed' } : item;
  });
}

/** Leaves out tool calls without a later result, results without an earlier call, and empty entries. */
function pairToolBlocks(items: readonly ContextEntry[]): { items: ContextEntry[]; unpaired: number } {
  const called = new Set<string>();
  const answered = new Set<string>();
  for (const item of items) {
    for (const block of item.entry.blocks) {
      if (block.type === 'tool_call') called.add(block.callId);
      else if (block.type === 'tool_result' && called.has(block.callId)) answered.add(block.callId);
    }
  }
  let unpaired = 0;
  const seen = new Set<string>();
  const out: ContextEntry[] = [];
  for (const item of items) {
    const blocks = item.entry.blocks.filter((block) => {
      if (block.type === 'tool_call') {
        seen.add(block.callId);
        if (answered.has(block.callId) && !block.hosted) return true;
        if (block.hosted) return true;
      } else if (block.type === 'tool_result') {
        if (seen.has(block.callId) && answered.has(block.callId)) return true;
      } else return true;
      unpaired++;
      return false;
    });
    // An empty reply (no text, no call) is not sent back: providers refuse empty messages.
    if (blocks.length === 0) continue;
    out.push(blocks.length === item.entry.blocks.length ? item : { ...item, entry: { ...item.entry, blocks } });
  }
  return { items: out, unpaired };
}

/** Tool output as data: the text inside a tag it cannot close. */
function fenceToolOutput(item: ContextEntry): ContextEntry {
  if (!item.entry.blocks.some((block) => block.type === 'tool_result')) return item;
  const blocks: Block[] = item.entry.blocks.map((block) => (block.type === 'tool_result'
    ? { ...block, content: block.content.map((part) => (part.type === 'text' ? { type: 'text' as const, text: wrapTranscript(part.text, 'tool-output') } : part)) }
    : block));
  return { ...item, entry: { ...item.entry, blocks } };
}

export function assembleRequest(args: AssembleArgs): Assembled {
  // A branch summary reaches the model as a user message, whatever role a strategy gave it.
  let history = args.history.map((item): ContextEntry => (item.entry.kind === 'compaction' && item.role === 'summary' ? { ...item, role: 'user' } : item));
  if (args.scratchpadLimits) history = compressOlderTurns(history, args.view, args.scratchpadLimits, args.compressed ?? new WeakMap());
  const paired = pairToolBlocks(history);
  const counted: ContextEntry[] = [];
  if (args.codeLaw) counted.push(codeLawItem(args.codeLaw, args.prompts));
  counted.push(...paired.items);
  const recap = todoRecap(args.view.messages);
  if (recap) {
    counted.push({ role: 'user', entry: madeEntry('todo-recap', 'user', `<system-reminder>\nTodo recap: ${recap}\n</system-reminder>`, 'agent.todo-recap', true), origin: 'synthetic' });
  }
  const context = counted.map(fenceToolOutput);
  return { request: { system: args.systemPrompt, tools: args.tools, context, signal: args.signal }, counted, unpaired: paired.unpaired };
}
