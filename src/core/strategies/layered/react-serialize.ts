/**
 * L12 (seed 002 §E1): history as the ReAct text the layered agent puts in its prompt, instead of
 * function-calling messages: `[assistant] Thought: … / Action: Tool[{…}]`, `[tool] {compressed json}`,
 * and `Action: Finish[…]` for an answer. The app passes `serializeReact` as
 * RunCompactionArgs.serialize when it runs the layered strategy, so the archive is written from
 * the same compressed history the agent keeps.
 */
import type { Entry } from '../../journal/entry.ts';
import { jsonText } from '../../journal/json-text.ts';
import { truncateMiddle } from '../../compaction/serialize.ts';
import { classify } from './turns.ts';
import { callsById, compressToolResult, DEFAULT_LIMITS, type CompressionLimits } from './tool-compression.ts';

/**
 * Longest string argument of an action kept in the summary prompt (file bodies, edit strings),
 * both ends kept: the summary needs what was done, not the whole text. Unit: chars.
 */
export const ACTION_VALUE_MAX_CHARS = 1000;

function clipValues(value: unknown): unknown {
  if (typeof value === 'string') return truncateMiddle(value, ACTION_VALUE_MAX_CHARS);
  if (Array.isArray(value)) return value.map(clipValues);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipValues(v)]));
  return value;
}

function inputJson(input: unknown): string {
  if (typeof input === 'string') return truncateMiddle(input, ACTION_VALUE_MAX_CHARS);
  try {
    return JSON.stringify(clipValues(input)) ?? '';
  } catch {
    return jsonText(input);
  }
}

/** One ReAct step: consecutive assistant entries (one response split per block) read as one. */
interface Step {
  thoughts: string[];
  texts: string[];
  actions: string[];
}

function renderStep(step: Step): string | undefined {
  const lines: string[] = [];
  if (step.actions.length > 0) {
    const thought = [...step.thoughts, ...step.texts].join('\n').trim();
    if (thought) lines.push(`Thought: ${thought}`);
    for (const action of step.actions) lines.push(`Action: ${action}`);
  } else {
    const thought = step.thoughts.join('\n').trim();
    if (thought) lines.push(`Thought: ${thought}`);
    const answer = step.texts.join('\n').trim();
    if (answer) lines.push(`Action: Finish[${answer}]`);
  }
  return lines.length > 0 ? `[assistant] ${lines.join('\n')}` : undefined;
}

/**
 * The entries as ReAct text. Tool observations are compressed with the L3 rules (history never
 * holds full observations); system prompts, archived summaries and harness events are left out,
 * since they are not part of the history being archived.
 */
export function serializeReact(entries: readonly Entry[], limits: CompressionLimits = DEFAULT_LIMITS): string {
  const calls = callsById(entries);
  const parts: string[] = [];
  let step: Step | undefined;
  const flush = () => {
    const text = step ? renderStep(step) : undefined;
    if (text) parts.push(text);
    step = undefined;
  };
  for (const entry of entries) {
    if (classify(entry) !== 'conversation') continue;
    if (entry.role === 'assistant') {
      step ??= { thoughts: [], texts: [], actions: [] };
      for (const block of entry.blocks) {
        if (block.type === 'thinking' && !block.redacted && block.text.trim()) step.thoughts.push(block.text.trim());
        else if (block.type === 'text' && block.text.trim()) step.texts.push(block.text.trim());
        else if (block.type === 'tool_call') step.actions.push(`${block.name}[${inputJson(block.input)}]`);
      }
      continue;
    }
    flush();
    const label = entry.role === 'user' && entry.flags?.injected ? '[user (injected by the harness)]' : `[${entry.role}]`;
    const texts: string[] = [];
    for (const block of entry.blocks) {
      if (block.type === 'tool_result') parts.push(`[tool] ${compressToolResult(block, calls.get(block.callId), limits).text}`);
      else if (block.type === 'text' && block.text.trim()) texts.push(block.text);
      else if (block.type === 'image') texts.push(`[image: ${block.mediaType}]`);
    }
    if (texts.length > 0) parts.push(`${label} ${texts.join('\n')}`);
  }
  flush();
  return parts.join('\n\n');
}
