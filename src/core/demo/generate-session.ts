// Deterministic, seeded generator of a realistic Claude Code session (JSONL text, CLI 2.0.14 shape):
// an agent working on a small TypeScript/Python repo over several user turns, for demos and benchmarks.
// This module runs the turns and writes the lines; the agent's prose is in ./assistant-prose.ts, its
// tool calls in ./tool-calls.ts, ./command-output.ts and ./long-output.ts. The words it writes with
// (repository, tasks, vocabulary, fixed files) live in ./data/, the contents of the repository's
// files come from ./repo-files.ts.

import { CONSTRAINTS, FOLLOW_UPS, TASKS, type Task } from './data/tasks.ts';
import { narrate, summaryText, thinking } from './assistant-prose.ts';
import { gitStatus } from './command-output.ts';
import { longOutput } from './long-output.ts';
import { Repo } from './repo-files.ts';
import { BASE62, hashString, Rng, utf8Length } from './rng.ts';
import { ROOT, type Block, type Lang, type ToolCall, type ToolContext, type Turn } from './session-shape.ts';
import { bash, exploreCall, readCall, todoWrite, verifyCall, workCall } from './tool-calls.ts';

export interface GenerateOptions {
  /** Number of agent-loop iterations (model calls). Default 300. */
  iterations?: number;
  /** Stop once the output reaches about this many bytes (overrides iterations when set). */
  targetBytes?: number;
  /** PRNG seed. Default 1. */
  seed?: number;
  /**
   * The user's language: 'mixed' (default) writes most prompts of the tasks that have one in
   * Chinese or Japanese (the agent then answers in that language); 'english' keeps every turn in English.
   */
  language?: DemoLanguage;
  /** Session start, epoch ms. Default 2026-03-02T09:00:00Z. */
  startMs?: number;
}

export type DemoLanguage = 'english' | 'mixed';

/** The whole session as JSONL text (one JSON object per line, trailing newline). */
export function generateSession(options: GenerateOptions = {}): string {
  const lines: string[] = [];
  for (const line of generateSessionLines(options)) lines.push(line);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The session line by line (no newlines), generated lazily: nothing is kept but the fake repo. */
export function* generateSessionLines(options: GenerateOptions = {}): Generator<string> {
  const gen = new SessionGenerator(options);
  yield* gen.run();
}

// ---------------------------------------------------------------------------------------------
// Tuning knobs

/** Chance per tool iteration of one long (20–60 KB) output: a big file read or a verbose command. */
const LONG_OUTPUT_P = 0.006;
const PARALLEL_P = 0.12;
const THINKING_P = 0.3;
const TEXT_BEFORE_TOOL_P = 0.55;
const VERSION = '2.0.14';
const MODEL = 'claude-sonnet-4-5-20250929';
/** Claude Code system prompt + tool definitions, in tokens, before the first user message. */
const BASE_CONTEXT_TOKENS = 17_400;

// ---------------------------------------------------------------------------------------------
// Session state and emission

class SessionGenerator implements ToolContext {
  readonly r: Rng;
  readonly repo: Repo;
  private readonly sessionId: string;
  private readonly targetBytes: number | undefined;
  private readonly iterations: number;
  private readonly language: DemoLanguage;
  now: number;
  private bytes = 0;
  private parent: string | null = null;
  private branch = 'main';
  private contextTokens = BASE_CONTEXT_TOKENS;
  private cachedTokens = 0;
  private iterationsDone = 0;
  private longOutputs = 0;
  private turnNo = 0;
  private taskOrder: Task[] = [];
  private out: string[] = [];
  readonly grepCache = new Map<string, { hits: string[]; files: string[] }>();

  constructor(options: GenerateOptions) {
    const seed = options.seed ?? 1;
    this.language = options.language ?? 'mixed';
    this.r = new Rng(seed);
    this.repo = new Repo(hashString(`seed:${seed}`));
    this.sessionId = this.r.uuid();
    this.now = options.startMs ?? Date.UTC(2026, 2, 2, 9, 0, 0);
    this.targetBytes = options.targetBytes !== undefined && options.targetBytes > 0 ? options.targetBytes : undefined;
    this.iterations = Math.max(1, Math.floor(options.iterations ?? 300));
  }

  *run(): Generator<string> {
    const first = this.nextTask();
    this.write({ type: 'summary', summary: first.title, leafUuid: this.r.uuid() });
    yield* this.flush();
    let task: Task | undefined = first;
    while (!this.done()) {
      const turn = this.startTurn(task ?? this.nextTask());
      task = undefined;
      yield* this.flush();
      for (turn.index = 0; turn.index < turn.length; turn.index++) {
        const last = turn.index === turn.length - 1 || this.bytesDone();
        if (last) this.finalMessage(turn);
        else this.toolIteration(turn);
        this.iterationsDone++;
        yield* this.flush();
        if (last) break;
      }
    }
  }

  private done(): boolean {
    return this.targetBytes !== undefined ? this.bytesDone() : this.iterationsDone >= this.iterations;
  }

  private bytesDone(): boolean {
    return this.targetBytes !== undefined && this.bytes >= this.targetBytes;
  }

  /** Room for a long output without overshooting the byte target. */
  private roomFor(bytes: number): boolean {
    return this.targetBytes === undefined || this.targetBytes - this.bytes > bytes * 2.5 + 20_000;
  }

  private *flush(): Generator<string> {
    const lines = this.out;
    this.out = [];
    yield* lines;
  }

  private write(obj: unknown): void {
    const line = JSON.stringify(obj);
    this.bytes += utf8Length(line) + 1;
    this.out.push(line);
  }

  private tick(minMs: number, maxMs: number): string {
    this.now += this.r.int(minMs, maxMs);
    return new Date(this.now).toISOString();
  }

  private nextTask(): Task {
    if (this.taskOrder.length === 0) this.taskOrder = this.r.sample(TASKS, TASKS.length);
    return this.taskOrder.pop() as Task;
  }

  // Lines are built as plain literals (no spread): V8 stringifies these fixed shapes much faster.

  private writeUser(parentUuid: string | null, content: unknown, uuid: string, timestamp: string, toolUseResult?: unknown): void {
    const { sessionId, branch: gitBranch } = this;
    if (toolUseResult === undefined) {
      this.write({ parentUuid, isSidechain: false, userType: 'external', cwd: ROOT, sessionId, version: VERSION, gitBranch, type: 'user', message: { role: 'user', content }, uuid, timestamp });
    } else {
      this.write({ parentUuid, isSidechain: false, userType: 'external', cwd: ROOT, sessionId, version: VERSION, gitBranch, type: 'user', message: { role: 'user', content }, uuid, timestamp, toolUseResult, sourceToolAssistantUUID: parentUuid });
    }
  }

  // --- turns -----------------------------------------------------------------------------------

  private startTurn(task: Task): Turn {
    const remaining = this.targetBytes !== undefined ? Infinity : this.iterations - this.iterationsDone;
    let length = Math.min(this.r.int(8, 25), remaining);
    if (remaining - length < 4) length = remaining;
    const cjk = this.language === 'mixed' && task.cjkPrompt !== undefined && this.r.chance(0.75);
    const lang: Lang = cjk && task.cjkPrompt ? task.cjkPrompt.lang : 'en';
    let prompt: string;
    if (cjk && task.cjkPrompt) {
      prompt = task.cjkPrompt.text;
    } else {
      const constraints = this.r.sample(CONSTRAINTS, this.r.int(1, 3)).join(' ');
      prompt = `${task.prompt} ${constraints}`;
      if (this.turnNo > 0 && this.r.chance(0.5)) prompt = `${this.r.pick(FOLLOW_UPS)} Next one: ${prompt}`;
      if (this.language === 'mixed' && this.r.chance(0.12)) prompt += ' 顺便把 CHANGELOG 也更新一下。';
    }
    this.turnNo++;
    this.branch = task.branch;
    const uuid = this.r.uuid();
    this.writeUser(this.parent, prompt, uuid, this.tick(60_000, 900_000));
    this.parent = uuid;
    this.contextTokens += tokensOf(prompt.length);
    const failing = this.r.chance(0.7);
    return { task, lang, prompt, length, index: 0, failuresLeft: failing ? this.r.int(1, 2) : 0, testRuns: 0, edits: [], todos: [], lastWasFailure: false };
  }

  private toolIteration(turn: Turn): void {
    const f = turn.length <= 2 ? 1 : turn.index / (turn.length - 1);
    let calls: ToolCall[];
    // Long outputs are rare, but every session past a few dozen iterations gets at least one.
    const longRoll = this.r.chance(LONG_OUTPUT_P) || (this.longOutputs === 0 && this.iterationsDone >= 30);
    if (longRoll && this.roomFor(60_000)) {
      this.longOutputs++;
      calls = [longOutput(this, turn)];
    } else if (turn.index === 0 && this.r.chance(0.7)) {
      calls = [todoWrite(turn, 0)];
    } else if (f < 0.35) {
      calls = [exploreCall(this, turn)];
      if (this.r.chance(PARALLEL_P * 2)) calls.push(exploreCall(this, turn));
    } else if (f < 0.85) {
      calls = [workCall(this, turn)];
      if (calls[0]?.name === 'Read' && this.r.chance(PARALLEL_P)) calls.push(readCall(this, this.r.pick(turn.task.files)));
    } else {
      calls = [verifyCall(this, turn)];
      if (this.r.chance(PARALLEL_P)) calls.push(bash(turn, 'git status --short', 'Show working tree status', gitStatus(turn)));
    }
    const blocks: Block[] = [];
    if (this.r.chance(THINKING_P)) blocks.push(thinking(this.r, turn, calls));
    if (this.r.chance(TEXT_BEFORE_TOOL_P)) blocks.push({ type: 'text', text: narrate(this.r, turn, calls[0] as ToolCall) });
    const uses = calls.map((c) => ({ type: 'tool_use' as const, id: `toolu_01${this.r.chars(BASE62, 22)}`, name: c.name, input: c.input }));
    blocks.push(...uses);
    const lineUuids = this.emitAssistant(blocks, 'tool_use');
    // Results, each parented to the assistant line holding its tool_use.
    const firstUseLine = lineUuids.length - uses.length;
    for (let k = 0; k < calls.length; k++) {
      const call = calls[k] as ToolCall;
      const use = uses[k] as { id: string };
      const source = lineUuids[firstUseLine + k] as string;
      const uuid = this.r.uuid();
      const block: Record<string, unknown> = { tool_use_id: use.id, type: 'tool_result', content: call.content };
      if (call.isError) block.is_error = true;
      this.writeUser(source, [block], uuid, this.tick(Math.floor(call.durationMs / 2), call.durationMs + 200), call.toolUseResult);
      this.contextTokens += tokensOf(call.content.length);
      this.parent = uuid;
    }
  }

  private finalMessage(turn: Turn): void {
    const blocks: Block[] = [];
    if (this.r.chance(THINKING_P / 2)) blocks.push(thinking(this.r, turn, []));
    blocks.push({ type: 'text', text: summaryText(this.r, turn) });
    this.emitAssistant(blocks, 'end_turn');
  }

  /** Writes one API response as one line per content block; returns the line uuids. */
  private emitAssistant(blocks: Block[], stop: 'tool_use' | 'end_turn'): string[] {
    const id = `msg_01${this.r.chars(BASE62, 22)}`;
    const requestId = `req_011C${this.r.chars(BASE62, 20)}`;
    let chars = 0;
    for (const b of blocks) chars += b.type === 'text' ? b.text.length : b.type === 'thinking' ? b.thinking.length : JSON.stringify(b.input).length;
    const output = tokensOf(chars) + this.r.int(8, 60);
    const creation = this.contextTokens - this.cachedTokens;
    const input = this.r.int(3, 12);
    const cacheRead = this.cachedTokens;
    this.cachedTokens = this.contextTokens;
    this.contextTokens += output;
    const uuids: string[] = [];
    this.tick(1_500, 9_000); // model latency before the first block
    for (let i = 0; i < blocks.length; i++) {
      const last = i === blocks.length - 1;
      const uuid = this.r.uuid();
      this.write({
        parentUuid: this.parent,
        isSidechain: false,
        userType: 'external',
        cwd: ROOT,
        sessionId: this.sessionId,
        version: VERSION,
        gitBranch: this.branch,
        message: { model: MODEL, id, type: 'message', role: 'assistant', content: [blocks[i]], stop_reason: last ? stop : null, stop_sequence: null, usage: { input_tokens: input, cache_creation_input_tokens: creation, cache_read_input_tokens: cacheRead, cache_creation: { ephemeral_5m_input_tokens: creation, ephemeral_1h_input_tokens: 0 }, output_tokens: last ? output : this.r.int(1, 12), service_tier: 'standard' } },
        requestId,
        type: 'assistant',
        uuid,
        timestamp: this.tick(200, 2_500),
      });
      this.parent = uuid;
      uuids.push(uuid);
    }
    return uuids;
  }
}

/** Rough token estimate of `chars` characters (English prose and code average ~3.6 chars/token). */
function tokensOf(chars: number): number {
  return Math.ceil(chars / 3.6);
}
