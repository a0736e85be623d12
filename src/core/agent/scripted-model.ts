/**
 * A model that replays replies from a JSON script, for demos and tests that run a whole live
 * session without a network or a GPU. Each model call takes the next unused step whose `match`
 * (if any) is found in the last user text, streams its text in small pieces (stopping at once when
 * the request's signal aborts), and answers with its tool calls, or fails as the step says
 * (`"error": "overflow"` is a context overflow, any other string a plain failure). Given the
 * stored journal of a resumed session, it continues where that session was.
 */
import type { Entry, Usage } from '../journal/entry.ts';
import type { ContextEntry } from '../compaction/types.ts';
import { scriptPosition, stepFits } from './script-position.ts';
import { ContextOverflowError, modelStopped, type AgentModel, type ModelDelta, type ModelReply, type ModelRequest, type ModelToolCall } from './types.ts';

/** One scripted reply. A step may also carry a `comment` (ignored), since JSON has no comments. */
export interface ScriptStep {
  /** Used only when the last user text contains this (case-insensitive); absent: any text. */
  match?: string;
  text?: string;
  thinking?: string;
  toolCalls?: Array<{ name: string; input?: unknown; id?: string }>;
  /** `'overflow'`: reject with ContextOverflowError; any other text: reject with that message. */
  error?: string;
  /** Pause before each streamed piece, ms. Default: the model's `delayMs` option. */
  delayMs?: number;
  /** Reported usage; absent: estimated as characters / 4 of the request and of the reply. */
  usage?: Usage;
}

/**
 * A script is an array of steps, or `{model?, summaryDelayMs?, steps}`. `summaryDelayMs`: how long
 * each of the session's summaries (the offline summarizer's) takes, ms, so a demo shows the
 * compaction blocking the input with its progress (L11); default 0.
 */
export type ModelScript = ScriptStep[] | { model?: string; summaryDelayMs?: number; steps: ScriptStep[] };

export interface ScriptedModelOptions {
  /** Model name reported with each reply. Default: the script's `model`, else 'scripted'. */
  model?: string;
  /** Characters per streamed text piece. Default 6. */
  pieceChars?: number;
  /** Pause before each piece when a step sets none, ms. Default 0. */
  delayMs?: number;
  /** Waits `ms`, ending early when `signal` aborts (injected in tests). Default: a timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * The stored journal of the session this model continues (after a reload): the steps its
   * recorded calls took are not replayed (`scriptPosition`). Default: none, the script starts at its first step.
   */
  journal?: readonly Entry[];
  /**
   * Model calls the resumed session made, stopped and failed ones included (they leave no reply in
   * the journal), when it was counted. Default: only the calls the journal shows.
   */
  calls?: number;
}

/** Characters per streamed piece when the options set none. */
export const DEFAULT_PIECE_CHARS = 6;

/** The script is not what the scripted model can replay; the message names the step and the field. */
export class ScriptFormatError extends Error {
  override name = 'ScriptFormatError';
}

/** A step's `error` other than "overflow", or a call with no step left to answer it. */
export class ScriptedModelError extends Error {
  override name = 'ScriptedModelError';
}

export interface ScriptedModel extends AgentModel {
  /** Steps not used yet. */
  remaining(): number;
}

/** A model replaying `script` (parsed JSON, checked here: a bad script fails before any call). */
export function createScriptedModel(script: unknown, options: ScriptedModelOptions = {}): ScriptedModel {
  const { steps, model: scriptModel } = parseScript(script);
  const model = options.model ?? scriptModel ?? 'scripted';
  const pieceChars = Math.max(1, options.pieceChars ?? DEFAULT_PIECE_CHARS);
  const sleep = options.sleep ?? defaultSleep;
  const position = scriptPosition(steps, options.journal ?? [], options.calls);
  const used = position.used;
  let calls = used.filter(Boolean).length;
  let nextCallId = position.nextCallId;

  async function complete(request: ModelRequest, onDelta?: (delta: ModelDelta) => void): Promise<ModelReply> {
    const { signal } = request;
    if (signal.aborted) throw modelStopped();
    calls++;
    const userText = lastUserText(request.context);
    const index = steps.findIndex((step, i) => !used[i] && stepFits(step, userText));
    if (index < 0) {
      throw new ScriptedModelError(`The script has no step left for call ${calls} (last user text: ${JSON.stringify(userText.slice(0, 80))}).`);
    }
    used[index] = true;
    const step = steps[index]!;
    const delayMs = step.delayMs ?? options.delayMs ?? 0;
    const pause = async (): Promise<void> => {
      if (delayMs > 0) await sleep(delayMs, signal);
      if (signal.aborted) throw modelStopped();
    };

    if (step.error !== undefined) {
      await pause();
      if (step.error === 'overflow') throw new ContextOverflowError(`Scripted context overflow (step ${index + 1}): the prompt is too long for the model's context window.`);
      throw new ScriptedModelError(step.error);
    }
    for (const piece of pieces(step.thinking ?? '', pieceChars)) {
      await pause();
      onDelta?.({ type: 'thinking', text: piece });
    }
    for (const piece of pieces(step.text ?? '', pieceChars)) {
      await pause();
      onDelta?.({ type: 'text', text: piece });
    }
    const toolCalls: ModelToolCall[] = [];
    for (const call of step.toolCalls ?? []) {
      await pause();
      const id = call.id ?? `call_${nextCallId++}`;
      onDelta?.({ type: 'tool_call', id, name: call.name });
      toolCalls.push({ id, name: call.name, input: call.input ?? {} });
    }
    if (signal.aborted) throw modelStopped();
    const text = step.text ?? '';
    const reply: ModelReply = {
      text,
      toolCalls,
      usage: step.usage ?? estimateUsage(request, text, step.thinking ?? '', toolCalls),
      stop: toolCalls.length > 0 ? 'tool_use' : 'end',
      model,
    };
    if (step.thinking !== undefined) reply.thinking = step.thinking;
    return reply;
  }

  return { kind: 'scripted', model, complete, remaining: () => used.filter((u) => !u).length };
}

/** The steps of a script, checked: every problem names its step (1-based) and the field. */
export function parseScript(script: unknown): { steps: ScriptStep[]; model?: string; summaryDelayMs?: number } {
  let raw: unknown = script;
  let model: string | undefined;
  let summaryDelayMs: number | undefined;
  if (isRecord(script)) {
    if (script.summaryDelayMs !== undefined) {
      const ms = script.summaryDelayMs;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new ScriptFormatError(`script: "summaryDelayMs" must be a number of milliseconds >= 0; got ${show(ms)}`);
      summaryDelayMs = ms;
    }
    if (script.model !== undefined) {
      if (typeof script.model !== 'string' || script.model.trim() === '') throw new ScriptFormatError(`script: "model" must be a non-empty string; got ${show(script.model)}`);
      model = script.model;
    }
    raw = script.steps;
    if (!Array.isArray(raw)) throw new ScriptFormatError(`script: expected an array of steps, or an object with "steps" as an array; got "steps": ${show(raw)}`);
  } else if (!Array.isArray(script)) {
    throw new ScriptFormatError(`script: expected an array of steps, or an object with "steps"; got ${show(script)}`);
  }
  const steps = (raw as unknown[]).map((value, i) => parseStep(value, i + 1));
  if (steps.length === 0) throw new ScriptFormatError('script: it has no steps; a model needs at least one reply');
  return { steps, ...(model !== undefined ? { model } : {}), ...(summaryDelayMs !== undefined ? { summaryDelayMs } : {}) };
}

const STEP_KEYS = new Set(['match', 'text', 'thinking', 'toolCalls', 'error', 'delayMs', 'usage', 'comment']);

function parseStep(value: unknown, n: number): ScriptStep {
  const where = `step ${n}`;
  if (!isRecord(value)) throw new ScriptFormatError(`${where}: expected an object like {"text": "…"}; got ${show(value)}`);
  for (const key of Object.keys(value)) {
    if (!STEP_KEYS.has(key)) throw new ScriptFormatError(`${where}: unknown field "${key}" (expected one of ${[...STEP_KEYS].join(', ')})`);
  }
  const step: ScriptStep = {};
  for (const key of ['match', 'text', 'thinking', 'error'] as const) {
    const field = value[key];
    if (field === undefined) continue;
    if (typeof field !== 'string') throw new ScriptFormatError(`${where}: "${key}" must be a string; got ${show(field)}`);
    step[key] = field;
  }
  if (step.error !== undefined && step.error.trim() === '') throw new ScriptFormatError(`${where}: "error" must be "overflow" or a message; got an empty string`);
  if (value.delayMs !== undefined) {
    if (typeof value.delayMs !== 'number' || !Number.isFinite(value.delayMs) || value.delayMs < 0) throw new ScriptFormatError(`${where}: "delayMs" must be a number of milliseconds >= 0; got ${show(value.delayMs)}`);
    step.delayMs = value.delayMs;
  }
  if (value.usage !== undefined) step.usage = parseUsage(value.usage, where);
  if (value.toolCalls !== undefined) {
    if (!Array.isArray(value.toolCalls)) throw new ScriptFormatError(`${where}: "toolCalls" must be an array of {"name", "input"}; got ${show(value.toolCalls)}`);
    step.toolCalls = value.toolCalls.map((call: unknown, j) => {
      const at = `${where}: toolCalls[${j}]`;
      if (!isRecord(call)) throw new ScriptFormatError(`${at} must be an object like {"name": "read", "input": {"path": "README.md"}}; got ${show(call)}`);
      if (typeof call.name !== 'string' || call.name.trim() === '') throw new ScriptFormatError(`${at}.name must be a non-empty string; got ${show(call.name)}`);
      if (call.id !== undefined && (typeof call.id !== 'string' || call.id === '')) throw new ScriptFormatError(`${at}.id must be a non-empty string when set; got ${show(call.id)}`);
      const parsed: { name: string; input?: unknown; id?: string } = { name: call.name };
      if (call.input !== undefined) parsed.input = call.input;
      if (typeof call.id === 'string') parsed.id = call.id;
      return parsed;
    });
  }
  const says = step.text !== undefined || step.thinking !== undefined || (step.toolCalls?.length ?? 0) > 0;
  if (step.error !== undefined && says) throw new ScriptFormatError(`${where}: a step with "error" fails the call, so it cannot also have "text", "thinking" or "toolCalls"`);
  if (step.error === undefined && !says) throw new ScriptFormatError(`${where}: expected "text", "thinking", "toolCalls" or "error"; the step says nothing`);
  return step;
}

function parseUsage(value: unknown, where: string): Usage {
  if (!isRecord(value)) throw new ScriptFormatError(`${where}: "usage" must be {"input": n, "output": n}; got ${show(value)}`);
  const usage: Usage = { input: 0, output: 0 };
  for (const key of ['input', 'output', 'cacheRead', 'cacheWrite', 'reasoning'] as const) {
    const field = value[key];
    if (field === undefined && key !== 'input' && key !== 'output') continue;
    if (typeof field !== 'number' || !Number.isInteger(field) || field < 0) throw new ScriptFormatError(`${where}: "usage.${key}" must be a whole number of tokens >= 0; got ${show(field)}`);
    usage[key] = field;
  }
  return usage;
}

/**
 * Text of the last user message of the context (what `match` is tested against): the user's own
 * words, with whatever was appended to them (an @file reminder); text the session adds on its own
 * (a todo recap) is passed over. '' when there is none.
 */
export function lastUserText(context: readonly ContextEntry[]): string {
  let fallback = '';
  for (let i = context.length - 1; i >= 0; i--) {
    const item = context[i]!;
    if (item.role !== 'user') continue;
    const text = item.entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    if (text.length === 0) continue;
    if (item.origin !== 'synthetic' && !item.entry.flags?.injected) return text;
    fallback ||= text;
  }
  return fallback;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  const chars = Array.from(text); // never split a surrogate pair
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function estimateUsage(request: ModelRequest, text: string, thinking: string, calls: readonly ModelToolCall[]): Usage {
  let input = request.system.length + JSON.stringify(request.tools).length;
  for (const item of request.context) {
    for (const block of item.entry.blocks) {
      if (block.type === 'text' || block.type === 'thinking') input += block.text.length;
      else if (block.type === 'tool_call') input += block.name.length + (JSON.stringify(block.input) ?? '').length;
      else if (block.type === 'tool_result') input += block.content.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
    }
  }
  const output = text.length + thinking.length + calls.reduce((sum, call) => sum + call.name.length + (JSON.stringify(call.input) ?? '').length, 0);
  return { input: Math.ceil(input / 4), output: Math.ceil(output / 4) };
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
