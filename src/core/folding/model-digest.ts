/**
 * Folded-block indexes written by a model (seed 003, "LLM 介入的层次"): the request for a block at
 * L2 (level summary), L3 (chapter index) or L4 (phase line), and the parsing and validation of the
 * JSON reply into a BlockDigest. A reply that cannot be used is reported as a ModelReplyError; the
 * caller (model-enrich.ts) retries once, then keeps the extraction digest. Also the self-check (F10).
 */
import { renderTemplate, getPrompt, type PromptLibrary } from '../compaction/prompts.ts';
import { serializeEntries, truncateMiddle, wrapTranscript } from '../compaction/serialize.ts';
import type { SummaryRequest } from '../compaction/summarizer.ts';
import type { Entry } from '../journal/entry.ts';
import { clipLine } from '../summarize/extract.ts';
import { KEY_ACTIONS_IMPORTANT, MAX_ENTITIES, MAX_KEYWORDS, SENTENCE_MAX_CHARS, TITLE_MAX_CHARS } from './digest.ts';
import type { BlockDigest } from './types.ts';

/** Levels a model writes: L2 summary, L3 chapter index, L4 phase line. */
export type ModelLevel = 2 | 3 | 4;

/** Prompt file of each level (prompts/<id>.md) and of the self-check. */
export const FOLD_PROMPTS = { 2: 'fold-level-summary', 3: 'fold-chapter-index', 4: 'fold-phase-synthesis' } as const;
export const SELF_CHECK_PROMPT = 'fold-self-check';

/** Longest source text sent for one block, characters (both ends kept). Default 24,000 (about 6k tokens). */
export const DEFAULT_SOURCE_CHARS = 24_000;
/** Characters of one tool result in a block's source. */
export const SOURCE_RESULT_CHARS = 1_000;
/** Longest summary kept, characters: L2 a few sentences, L3 two or three. */
export const SUMMARY_MAX_CHARS: Readonly<Record<2 | 3, number>> = { 2: 800, 3: 480 };
/** Longest L4 line, characters. */
export const LINE_MAX_CHARS = SENTENCE_MAX_CHARS;
/** Longest outcome string (the outcomes joined), characters. */
export const OUTCOME_MAX_CHARS = 2 * SENTENCE_MAX_CHARS;
export const MAX_OUTCOMES = 3;
export const MAX_KEY_ACTIONS = KEY_ACTIONS_IMPORTANT;
/** Facts a self-check may add to a summary. */
export const MAX_MISSING = 5;
const KEYWORD_MAX_CHARS = 40;
const ENTITY_MAX_CHARS = 120;
const ITEM_MAX_CHARS = SENTENCE_MAX_CHARS;
/** Output cap asked of the model, tokens. */
const MAX_TOKENS: Readonly<Record<ModelLevel | 'check', number>> = { 2: 700, 3: 500, 4: 120, check: 400 };

/** A model reply that cannot be used; the message says what was wrong with it. */
export class ModelReplyError extends Error {
  override name = 'ModelReplyError';
}

/** What a model said about a block, validated and clipped. */
export interface ModelFields {
  title?: string;
  summary: string;
  keyActions: string[];
  outcomes: string[];
  keywords: string[];
  entities: string[];
}

export interface SelfCheck {
  complete: boolean;
  missing: string[];
}

/** The block a request is for: its range, level and the source the model reads. */
export interface BlockSource {
  id: string;
  level: ModelLevel;
  from: number;
  to: number;
  entries: readonly Entry[];
  /** Texts of the block's children (their summaries) when it has any; else the entries are serialized. */
  childTexts?: readonly string[];
}

function span(from: number, to: number): string {
  return from === to ? `iteration ${from}` : `iterations ${from}-${to}`;
}

/** The source text of a block, clipped to `maxChars`, and how to describe it in the prompt. */
export function blockSourceText(block: BlockSource, maxChars = DEFAULT_SOURCE_CHARS): { text: string; wrapped: string; kind: string } {
  if (block.childTexts && block.childTexts.length > 0) {
    const text = truncateMiddle(block.childTexts.join('\n\n'), maxChars);
    return { text, wrapped: wrapTranscript(text, 'summaries'), kind: `the summaries of its ${block.childTexts.length} parts, oldest first` };
  }
  const text = truncateMiddle(serializeEntries(block.entries, SOURCE_RESULT_CHARS), maxChars);
  return { text, wrapped: wrapTranscript(text), kind: 'the transcript of the iterations' };
}

/** The SummaryRequest for a block's index at its level. `retryNote` is added when asking again. */
export function blockRequest(block: BlockSource, prompts: PromptLibrary, signal: AbortSignal, options: { sourceChars?: number; retryNote?: string } = {}): SummaryRequest {
  const source = blockSourceText(block, options.sourceChars);
  const promptId = FOLD_PROMPTS[block.level];
  const vars: Record<string, string> = {
    span: span(block.from, block.to),
    source: source.wrapped,
    source_kind: source.kind,
    summary_chars: String(block.level === 4 ? LINE_MAX_CHARS : SUMMARY_MAX_CHARS[block.level]),
    title_chars: String(TITLE_MAX_CHARS),
    line_chars: String(LINE_MAX_CHARS),
    max_actions: String(block.level === 2 ? MAX_KEY_ACTIONS : Math.ceil(MAX_KEY_ACTIONS / 2)),
    max_keywords: String(MAX_KEYWORDS),
    max_entities: String(MAX_ENTITIES),
  };
  let prompt = renderTemplate(getPrompt(prompts, promptId), vars);
  if (options.retryNote) prompt += `\n\nYour previous reply could not be used: ${options.retryNote}. Reply again with the JSON object only.`;
  return { taskId: `${block.id}|L${block.level}`, promptId, prompt, entries: block.entries, serialized: source.text, vars, maxTokens: MAX_TOKENS[block.level], signal };
}

/** The self-check request (F10): the summary and its source, asking what is missing. */
export function selfCheckRequest(block: BlockSource, summaryText: string, prompts: PromptLibrary, signal: AbortSignal, options: { sourceChars?: number } = {}): SummaryRequest {
  const source = blockSourceText(block, options.sourceChars);
  const vars: Record<string, string> = {
    span: span(block.from, block.to),
    summary: wrapTranscript(summaryText, 'summary'),
    source: source.wrapped,
    max_missing: String(MAX_MISSING),
  };
  const prompt = renderTemplate(getPrompt(prompts, SELF_CHECK_PROMPT), vars);
  return { taskId: `${block.id}|L${block.level}|check`, promptId: SELF_CHECK_PROMPT, prompt, entries: block.entries, serialized: source.text, vars, maxTokens: MAX_TOKENS.check, signal };
}

/** The JSON object text in a reply: inside a code fence if there is one, else from the first `{` to its matching `}`. */
function jsonText(reply: string): string | undefined {
  const text = reply.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const fenced = /```[a-zA-Z]*[^\S\n]*\n?([\s\S]*?)```/.exec(text)?.[1];
  const body = fenced !== undefined && fenced.includes('{') ? fenced : text;
  const start = body.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return body.slice(start, i + 1);
    }
  }
  // Unterminated: JSON.parse says where it ends.
  return body.slice(start);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Parses a reply into a JSON object, tolerating a code fence, prose around it and a `<think>` block. */
export function parseJsonReply(reply: string): Record<string, unknown> {
  const text = jsonText(reply);
  if (text === undefined) throw new ModelReplyError(reply.trim() ? 'reply was not JSON (no object in it)' : 'reply was empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ModelReplyError(`reply was not JSON (${clipLine((error as Error).message, 100)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ModelReplyError(`reply was ${describe(value)}, not a JSON object`);
  return value as Record<string, unknown>;
}

function requiredString(object: Record<string, unknown>, name: string, max: number): string {
  const value = object[name];
  if (value === undefined || value === null) throw new ModelReplyError(`"${name}" is missing`);
  if (typeof value !== 'string') throw new ModelReplyError(`"${name}" is ${describe(value)}, expected a string`);
  const line = clipLine(value, max);
  if (!line) throw new ModelReplyError(`"${name}" is empty`);
  return line;
}

/** A list of strings, deduplicated, clipped and capped; missing or null gives []. */
function stringList(object: Record<string, unknown>, name: string, maxItems: number, maxChars: number, lower = false): string[] {
  const value = object[name];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ModelReplyError(`"${name}" is ${describe(value)}, expected a list of strings`);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string') throw new ModelReplyError(`"${name}[${i}]" is ${describe(item)}, expected a string`);
    const line = clipLine(lower ? item.toLowerCase() : item, maxChars);
    const key = line.toLowerCase();
    if (!line || seen.has(key)) continue;
    seen.add(key);
    if (out.length < maxItems) out.push(line);
  }
  return out;
}

/** Validates a model's reply for a block at `level`; throws ModelReplyError saying what is wrong. */
export function parseModelReply(level: ModelLevel, reply: string): ModelFields {
  const object = parseJsonReply(reply);
  if (level === 4) {
    const line = requiredString(object, 'line', LINE_MAX_CHARS);
    return { summary: line, keyActions: [], outcomes: [], keywords: [], entities: [] };
  }
  return {
    ...(level === 3 ? { title: requiredString(object, 'title', TITLE_MAX_CHARS) } : {}),
    summary: requiredString(object, 'summary', SUMMARY_MAX_CHARS[level]),
    keyActions: stringList(object, 'key_actions', MAX_KEY_ACTIONS, ITEM_MAX_CHARS),
    outcomes: stringList(object, 'outcomes', MAX_OUTCOMES, ITEM_MAX_CHARS),
    keywords: stringList(object, 'keywords', MAX_KEYWORDS, KEYWORD_MAX_CHARS, true),
    entities: stringList(object, 'entities', MAX_ENTITIES, ENTITY_MAX_CHARS),
  };
}

/** Validates a self-check reply: `complete` a boolean, `missing` a list of strings (capped at MAX_MISSING). */
export function parseSelfCheck(reply: string): SelfCheck {
  const object = parseJsonReply(reply);
  const complete = object.complete;
  if (typeof complete !== 'boolean') throw new ModelReplyError(complete === undefined ? '"complete" is missing' : `"complete" is ${describe(complete)}, expected true or false`);
  return { complete, missing: stringList(object, 'missing', MAX_MISSING, ITEM_MAX_CHARS) };
}

function merge(first: readonly string[], then: readonly string[], max: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const item of [...first, ...then]) {
    const key = item.toLowerCase();
    if (seen.has(key) || out.length >= max) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

/**
 * The digest of a block from the model's fields over its extraction digest: the model's summary,
 * title (L3; L4 the line; L2 keeps the extracted one), actions and outcomes; its keywords and
 * entities first, then the extracted ones (exact names keep recall working); state changes, error
 * and file counts stay extracted, they are facts.
 */
export function modelDigest(level: ModelLevel, fields: ModelFields, offline: BlockDigest): BlockDigest {
  if (level === 4) {
    return { ...offline, title: clipLine(fields.summary, TITLE_MAX_CHARS), content: fields.summary };
  }
  return {
    ...offline,
    title: fields.title ?? offline.title,
    content: fields.summary,
    outcome: fields.outcomes.length > 0 ? clipLine(fields.outcomes.join('; '), OUTCOME_MAX_CHARS) : offline.outcome,
    keyActions: fields.keyActions.length > 0 ? fields.keyActions : offline.keyActions,
    keywords: merge(fields.keywords, offline.keywords, MAX_KEYWORDS),
    entities: merge(fields.entities, offline.entities, MAX_ENTITIES),
  };
}

/** Adds what a self-check found missing to the summary (never removes anything); `added` counts the new facts. */
export function withMissing(digest: BlockDigest, missing: readonly string[]): { digest: BlockDigest; added: number } {
  const content = digest.content.toLowerCase();
  const added = merge(missing.filter((item) => !content.includes(item.toLowerCase())), [], MAX_MISSING);
  if (added.length === 0) return { digest, added: 0 };
  return {
    digest: {
      ...digest,
      content: `${digest.content} Also: ${added.map((item) => item.replace(/[.;]+$/, '')).join('; ')}.`,
      keyActions: merge(digest.keyActions, added, MAX_KEY_ACTIONS + MAX_MISSING),
    },
    added: added.length,
  };
}
