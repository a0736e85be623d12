// Deterministic, seeded generator of a realistic Claude Code session (JSONL text, CLI 2.0.14 shape):
// an agent working on a small TypeScript/Python repo over several user turns, for demos and benchmarks.
// The words it writes with (repository, tasks, vocabulary, fixed files) live in ./data/, the
// contents of the repository's files come from ./repo-files.ts.

import { BIG_FILES, GLOBS, MISSING_FILES, TREE } from './data/repo.ts';
import { CONSTRAINTS, FOLLOW_UPS, TASKS, type Task } from './data/tasks.ts';
import { ERROR_CODES, NOUNS, PURPOSES, VERBS } from './data/words.ts';
import { Repo } from './repo-files.ts';
import { BASE62, BASE64, cap, hashString, Rng, utf8Length } from './rng.ts';

export interface GenerateOptions {
  /** Number of agent-loop iterations (model calls). Default 300. */
  iterations?: number;
  /** Stop once the output reaches about this many bytes (overrides iterations when set). */
  targetBytes?: number;
  /** PRNG seed. Default 1. */
  seed?: number;
  /** Session start, epoch ms. Default 2026-03-02T09:00:00Z. */
  startMs?: number;
}

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
const ROOT = '/home/dev/src/ledgerly';
/** Claude Code system prompt + tool definitions, in tokens, before the first user message. */
const BASE_CONTEXT_TOKENS = 17_400;

// ---------------------------------------------------------------------------------------------
// Helpers

const abs = (path: string): string => `${ROOT}/${path}`;

// ---------------------------------------------------------------------------------------------
// The fake repository

// ---------------------------------------------------------------------------------------------
// Tasks the user asks for

/** `cat -n` style numbering as Claude Code's Read tool returns it. */
function numbered(lines: readonly string[], firstLine: number): string {
  const out: string[] = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) out[i] = `${String(firstLine + i).padStart(6, ' ')}→${lines[i]}`;
  return out.join('\n');
}

const READ_REMINDER =
  '\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to improve or augment the code. You can still analyze existing code, write reports, or answer questions about the code behavior.\n</system-reminder>\n';

// ---------------------------------------------------------------------------------------------
// Session state and emission

type Lang = 'en' | 'ja' | 'zh';

interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  content: string;
  isError?: boolean;
  toolUseResult: unknown;
  /** Simulated tool run time, ms. */
  durationMs: number;
}

interface EditRecord {
  path: string;
  line: number;
  oldLines: string[];
  newLines: string[];
}

interface Todo {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  activeForm: string;
}

interface Turn {
  task: Task;
  lang: Lang;
  prompt: string;
  length: number;
  index: number;
  failuresLeft: number;
  testRuns: number;
  edits: EditRecord[];
  todos: Todo[];
  lastWasFailure: boolean;
}

type Block = { type: 'thinking'; thinking: string; signature: string } | { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

class SessionGenerator {
  private readonly r: Rng;
  private readonly repo: Repo;
  private readonly sessionId: string;
  private readonly targetBytes: number | undefined;
  private readonly iterations: number;
  private now: number;
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

  constructor(options: GenerateOptions) {
    const seed = options.seed ?? 1;
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
    const cjk = task.cjkPrompt !== undefined && this.r.chance(0.75);
    const lang: Lang = cjk && task.cjkPrompt ? task.cjkPrompt.lang : 'en';
    let prompt: string;
    if (cjk && task.cjkPrompt) {
      prompt = task.cjkPrompt.text;
    } else {
      const constraints = this.r.sample(CONSTRAINTS, this.r.int(1, 3)).join(' ');
      prompt = `${task.prompt} ${constraints}`;
      if (this.turnNo > 0 && this.r.chance(0.5)) prompt = `${this.r.pick(FOLLOW_UPS)} Next one: ${prompt}`;
      if (this.r.chance(0.12)) prompt += ' 顺便把 CHANGELOG 也更新一下。';
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
      calls = [this.longOutput(turn)];
    } else if (turn.index === 0 && this.r.chance(0.7)) {
      calls = [this.todoWrite(turn, 0)];
    } else if (f < 0.35) {
      calls = [this.exploreCall(turn)];
      if (this.r.chance(PARALLEL_P * 2)) calls.push(this.exploreCall(turn));
    } else if (f < 0.85) {
      calls = [this.workCall(turn)];
      if (calls[0]?.name === 'Read' && this.r.chance(PARALLEL_P)) calls.push(this.readCall(this.r.pick(turn.task.files)));
    } else {
      calls = [this.verifyCall(turn)];
      if (this.r.chance(PARALLEL_P)) calls.push(this.bash(turn, 'git status --short', 'Show working tree status', this.gitStatus(turn)));
    }
    const blocks: Block[] = [];
    if (this.r.chance(THINKING_P)) blocks.push(this.thinking(turn, calls));
    if (this.r.chance(TEXT_BEFORE_TOOL_P)) blocks.push({ type: 'text', text: this.narrate(turn, calls[0] as ToolCall) });
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
    if (this.r.chance(THINKING_P / 2)) blocks.push(this.thinking(turn, []));
    blocks.push({ type: 'text', text: this.summaryText(turn) });
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

  // --- assistant prose -------------------------------------------------------------------------

  private thinking(turn: Turn, calls: ToolCall[]): Block {
    const t = turn.task;
    const parts = [
      `The user wants: ${t.title.toLowerCase()}.`,
      `The relevant code is probably in ${t.files.join(' and ')}, and the tests live in ${t.test}.`,
      turn.lastWasFailure ? `The last test run failed: expected ${t.expected} but got ${t.received}. So ${t.symbol} still has the old behaviour on that path.` : `I should check how ${t.symbol} is called before changing it, so I don't break callers.`,
      calls[0] ? `Next step: ${calls[0].name} ${JSON.stringify(calls[0].input).slice(0, 80)}.` : 'Everything passes now; I should summarize the change for the user.',
      `The constraint is to keep the public API stable, so the signature of ${t.symbol} must not change.`,
      'Let me also keep in mind the edge cases: empty input, negative amounts, and currencies with 0 decimals like JPY.',
      'Rounding must stay in integer minor units; converting to floats anywhere would reintroduce drift.',
    ];
    const picked = parts.filter(() => this.r.chance(0.55));
    if (turn.lang !== 'en') picked.unshift(`The user writes in ${turn.lang === 'ja' ? 'Japanese' : 'Chinese'}: "${turn.prompt.slice(0, 60)}…". I'll answer in the same language.`);
    const text = this.r.chance(0.1) ? '' : picked.join(' ');
    return { type: 'thinking', thinking: text, signature: `Eq${this.r.chars(BASE64, this.r.int(100, 500))}` };
  }

  private narrate(turn: Turn, call: ToolCall): string {
    const t = turn.task;
    const file = typeof call.input.file_path === 'string' ? `\`${call.input.file_path.replace(`${ROOT}/`, '')}\`` : 'the file';
    if (call.name === 'Bash') return this.narrateCommand(turn.lang, String(call.input.command));
    if (turn.lang === 'ja') {
      const ja: Record<string, string[]> = {
        Read: [`${file} を確認します。`, `まず ${file} の実装を読みます。`],
        Edit: [`\`${t.symbol}\` を修正します。`, '原因が分かりました。修正します。'],
        Grep: [`\`${t.symbol}\` の使用箇所を検索します。`],
        Glob: ['関連するファイルを探します。'],
        Write: [`${file} を新規作成します。`],
        TodoWrite: ['作業を手順に分けて進めます。', 'TODO リストを更新します。'],
      };
      const options = ja[call.name];
      if (options) return this.r.pick(options);
    }
    if (turn.lang === 'zh') {
      const zh: Record<string, string[]> = {
        Read: [`先看一下 ${file} 的实现。`],
        Edit: [`修改 \`${t.symbol}\`。`, '找到原因了，现在修复。'],
        Grep: [`搜索 \`${t.symbol}\` 的调用位置。`],
        Glob: ['先找一下相关文件。'],
        Write: [`新建 ${file}。`],
        TodoWrite: ['把任务拆成几个步骤。', '更新一下待办列表。'],
      };
      const options = zh[call.name];
      if (options) return this.r.pick(options);
    }
    switch (call.name) {
      case 'Read':
        return this.r.pick([`Let me read ${file}.`, `Let me look at ${file} to see how \`${t.symbol}\` works.`, `I'll check ${file} next.`, 'Now let me look at the test file to see what it expects.']);
      case 'Edit':
        return turn.lastWasFailure
          ? this.r.pick([`The test shows ${t.received} where ${t.expected} is expected. The bug is in \`${t.symbol}\`; let me fix it.`, `I see the problem: the ${t.symbol} path still uses the old logic. Fixing it.`])
          : this.r.pick([`Now I'll update \`${t.symbol}\`.`, `I'll make the change in ${file}.`, 'Let me add the test cases first.']);
      case 'Write':
        return `I'll create ${file}.`;
      case 'Grep':
        return this.r.pick([`Let me find where \`${t.symbol}\` is used.`, `Let me search for callers of \`${t.symbol}\`.`]);
      case 'Glob':
        return 'Let me find the relevant files.';
      case 'TodoWrite':
        return this.r.pick(["I'll break this down into steps.", 'Let me update the todo list.']);
      default:
        return 'Let me continue.';
    }
  }

  private narrateCommand(lang: Lang, command: string): string {
    const kind = /pytest|vitest|npm test/.test(command) ? 0 : /git (diff|status)/.test(command) ? 1 : /tsc|mypy/.test(command) ? 2 : /lint|ruff/.test(command) ? 3 : 4;
    const texts: Record<Lang, string[][]> = {
      en: [['Let me run the tests.', 'Now let me run the test suite to confirm the fix.', 'Running the tests again.'], ["Let me check what's changed.", 'Let me review the diff.'], ['Running the type checker.'], ['Let me run the linter.'], ['Let me look around.', 'Let me check the repository history and layout.']],
      ja: [['テストを実行して確認します。'], ['変更内容を確認します。'], ['型チェックを実行します。'], ['Lint を実行します。'], ['リポジトリの構成を確認します。']],
      zh: [['运行测试确认一下。'], ['看一下改动。'], ['运行类型检查。'], ['运行 lint。'], ['先看一下仓库结构。']],
    };
    return this.r.pick(texts[lang][kind] as string[]);
  }

  private summaryText(turn: Turn): string {
    const t = turn.task;
    const tests = this.r.int(80, 140);
    const files = [...new Set([...turn.edits.map((e) => e.path), ...t.files.slice(0, 1), t.test])];
    if (turn.lang === 'ja') {
      return ['完了しました。変更内容は以下のとおりです。', '', ...files.map((p) => `- **\`${p}\`**: \`${t.symbol}\` まわりを修正`), '', `\`npm test\` はすべて通過しています（${tests} 件）。公開 API は変更していません。`].join('\n');
    }
    if (turn.lang === 'zh') {
      return ['已完成，修改如下：', '', ...files.map((p) => `- **\`${p}\`**：更新了 \`${t.symbol}\` 相关逻辑`), '', `所有测试均已通过（${tests} 个），没有引入新的依赖。`].join('\n');
    }
    const runner = t.lang === 'py' ? '`pytest scripts/etl`' : '`npm test`';
    return [
      this.r.pick(['Done. Summary of the changes:', "All set. Here's what changed:", 'The fix is in. Changes:']),
      '',
      ...t.bullets.map((b) => `- ${b}`),
      '',
      `Files touched: ${files.map((p) => `\`${p}\``).join(', ')}.`,
      '',
      `${runner} passes (${tests} tests)${t.lang === 'ts' ? ' and `npx tsc --noEmit` is clean' : ''}. ${this.r.pick(['No exported signatures changed.', 'No new dependencies.', 'The diff is limited to the files above.'])}`,
    ].join('\n');
  }

  // --- tool calls ------------------------------------------------------------------------------

  private exploreCall(turn: Turn): ToolCall {
    const t = turn.task;
    const kind = this.r.weighted<string>([
      ['read', 3.5],
      ['read-other', 1],
      ['grep', 3],
      ['glob', 1.2],
      ['ls', 0.8],
      ['git', 0.8],
      ['missing', 0.5],
    ]);
    switch (kind) {
      case 'read':
        return this.readCall(this.r.pick([...t.files, t.test]));
      case 'read-other':
        return this.readCall(this.r.pick(TREE.filter((f) => !BIG_FILES.includes(f.path))).path);
      case 'grep':
        return this.grepCall(t.symbol, this.r.chance(0.3) ? 'files_with_matches' : 'content');
      case 'glob':
        return this.globCall();
      case 'ls': {
        const dir = this.r.pick(['src', 'src/services', 'src/lib', 'test', 'scripts/etl', 'locales']);
        return this.bash(turn, `ls -la ${dir}`, `List ${dir}`, this.listing(dir));
      }
      case 'git':
        return this.bash(turn, 'git log --oneline -12', 'Show recent commits', this.gitLog(12));
      default:
        return this.missingRead();
    }
  }

  private workCall(turn: Turn): ToolCall {
    const t = turn.task;
    if (turn.lastWasFailure && this.r.chance(0.6)) {
      return this.r.chance(0.35) ? this.readCall(t.test) : this.editCall(turn, this.r.pick(t.files));
    }
    const kind = this.r.weighted<string>([
      ['edit', 4],
      ['test', 3],
      ['read', 1.8],
      ['grep', 0.8],
      ['write', 0.3],
      ['todo', 0.5],
      ['edit-error', 0.3],
      ['tsc', 0.5],
    ]);
    switch (kind) {
      case 'edit':
        return this.editCall(turn, this.r.chance(0.3) ? t.test : this.r.pick(t.files));
      case 'test':
        return this.testCall(turn, false);
      case 'read':
        return this.readCall(this.r.pick([...t.files, t.test]));
      case 'grep':
        return this.grepCall(this.r.pick([t.symbol, 'LedgerError', 'logger.debug', 'TODO']), 'content');
      case 'write':
        return this.writeCall(turn);
      case 'todo':
        return this.todoWrite(turn, Math.min(3, 1 + Math.floor(turn.index / 4)));
      case 'edit-error':
        return this.editError(t.files[0] as string);
      default:
        return this.tscCall(turn);
    }
  }

  private verifyCall(turn: Turn): ToolCall {
    turn.failuresLeft = 0;
    const kind = this.r.weighted<string>([
      ['test', 3],
      ['diff', 2],
      ['tsc', turn.task.lang === 'ts' ? 1 : 0],
      ['lint', 0.8],
      ['todo', 0.7],
    ]);
    switch (kind) {
      case 'test':
        return this.testCall(turn, true);
      case 'diff':
        return this.bash(turn, this.r.chance(0.3) ? 'git diff --stat' : 'git diff', 'Show the changes', this.gitDiff(turn));
      case 'tsc':
        return this.tscCall(turn);
      case 'lint':
        return turn.task.lang === 'py' ? this.bash(turn, 'cd scripts/etl && ruff check .', 'Lint the ETL scripts', 'All checks passed!') : this.bash(turn, 'npm run lint', 'Run ESLint', '\n> ledgerly@0.9.3 lint\n> eslint .\n');
      default:
        return this.todoWrite(turn, 4);
    }
  }

  private readCall(path: string): ToolCall {
    const text = this.repo.content(path);
    const all = this.repo.lines(path);
    const input: Record<string, unknown> = { file_path: abs(path) };
    let start = 1;
    let lines = all;
    if (all.length > 70 && this.r.chance(0.55)) {
      start = this.r.int(1, all.length - 60);
      const limit = this.r.pick([40, 60, 80, 100]);
      lines = all.slice(start - 1, start - 1 + limit);
      input.offset = start;
      input.limit = limit;
    }
    const content = numbered(lines, start) + READ_REMINDER;
    return { name: 'Read', input, content, toolUseResult: { type: 'text', file: { filePath: abs(path), content: lines === all ? text : lines.join('\n'), numLines: lines.length, startLine: start, totalLines: all.length } }, durationMs: 60 };
  }

  private missingRead(): ToolCall {
    const path = this.r.pick(MISSING_FILES);
    const msg = `File not found: ${abs(path)}. Current working directory: ${ROOT}`;
    return { name: 'Read', input: { file_path: abs(path) }, content: `<tool_use_error>${msg}</tool_use_error>`, isError: true, toolUseResult: `Error: ${msg}`, durationMs: 20 };
  }

  private editCall(turn: Turn, path: string): ToolCall {
    const all = this.repo.lines(path);
    let start = this.r.int(0, Math.max(0, all.length - 6));
    for (let tries = 0; tries < 8 && (all[start] ?? '').trim() === ''; tries++) start = this.r.int(0, Math.max(0, all.length - 6));
    const oldLines = all.slice(start, start + this.r.int(2, 5));
    const indent = /^\s*/.exec(oldLines[1] ?? oldLines[0] ?? '')?.[0] ?? '';
    const py = path.endsWith('.py');
    const added = py
      ? [`${indent}${this.r.pick([`# ${turn.task.title}.`, `if dry_run:`, `seen.add((txn.txn_id, txn.amount, txn.booked_at))`, `log.info("dropped %d duplicates", dropped)`])}`]
      : [`${indent}${this.r.pick([`// ${turn.task.title}: see ${turn.task.test}.`, `if (opts.limit !== undefined && opts.limit > 100) throw new LedgerError('INVALID_LIMIT', 'limit must be <= 100');`, 'const remainder = total - parts.reduce((a, b) => a + b, 0);', `const day = isBusinessDay(date) ? date : previousBusinessDay(date);`])}`];
    const newLines = [...oldLines.slice(0, 1), ...added, ...oldLines.slice(1)];
    turn.edits.push({ path, line: start + 1, oldLines, newLines });
    const snippetStart = Math.max(0, start - 4);
    const after = [...all.slice(snippetStart, start), ...newLines, ...all.slice(start + oldLines.length, start + oldLines.length + 5)];
    const content = `The file ${abs(path)} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numbered(after, snippetStart + 1)}`;
    const oldString = oldLines.join('\n');
    const newString = newLines.join('\n');
    if (turn.lastWasFailure && turn.failuresLeft > 0) turn.failuresLeft--;
    turn.lastWasFailure = false;
    return {
      name: 'Edit',
      input: { file_path: abs(path), old_string: oldString, new_string: newString },
      content,
      toolUseResult: { filePath: abs(path), oldString, newString, structuredPatch: [{ oldStart: start + 1, oldLines: oldLines.length, newStart: start + 1, newLines: newLines.length, lines: [...oldLines.slice(0, 1).map((l) => ` ${l}`), ...added.map((l) => `+${l}`), ...oldLines.slice(1).map((l) => ` ${l}`)] }], userModified: false, replaceAll: false },
      durationMs: 80,
    };
  }

  private editError(path: string): ToolCall {
    const msg = this.r.chance(0.5) ? 'File has not been read yet. Read it first before writing to it.' : `String to replace not found in file.\nString: const total = parts.reduce((a, b) => a + b);`;
    return { name: 'Edit', input: { file_path: abs(path), old_string: 'const total = parts.reduce((a, b) => a + b);', new_string: 'const total = parts.reduce((a, b) => a + b, 0);' }, content: `<tool_use_error>${msg}</tool_use_error>`, isError: true, toolUseResult: `Error: ${msg}`, durationMs: 15 };
  }

  private writeCall(turn: Turn): ToolCall {
    const t = turn.task;
    const py = t.lang === 'py';
    const path = py ? `scripts/etl/tests/test_${t.symbol}_edge_cases.py` : `test/${t.symbol}.edge.test.ts`;
    const body = py
      ? ['from decimal import Decimal', '', `from ${t.files[0]?.split('/').pop()?.replace('.py', '')} import ${t.symbol}`, '', '', ...t.cases.flatMap((c) => [`def ${c}_edge():`, `    assert ${t.symbol}([]) == ${t.expected}`, '', ''])]
      : ["import { describe, expect, it } from 'vitest';", `import { ${t.symbol} } from '../${t.files[0]}';`, '', `describe('${t.suite} edge cases', () => {`, ...t.cases.flatMap((c) => [`  it('${c} (edge)', () => {`, `    expect(${t.symbol}(${this.r.pick(['money(0)', "'2024-02-29'", '[]'])})).toEqual(${t.expected});`, '  });', '']), '});'];
    const content = body.join('\n');
    turn.edits.push({ path, line: 1, oldLines: [], newLines: body });
    return { name: 'Write', input: { file_path: abs(path), content }, content: `File created successfully at: ${abs(path)}`, toolUseResult: { type: 'create', filePath: abs(path), content, structuredPatch: [] }, durationMs: 40 };
  }

  private grepCall(pattern: string, mode: 'content' | 'files_with_matches'): ToolCall {
    const { hits, files } = this.grepRepo(pattern);
    const input: Record<string, unknown> = { pattern, output_mode: mode };
    if (mode === 'content') input['-n'] = true;
    if (this.r.chance(0.4)) input.path = abs(this.r.pick(['src', 'test', 'scripts/etl']));
    const content = mode === 'content' ? (hits.length > 0 ? hits.join('\n') : 'No matches found') : files.length > 0 ? `Found ${files.length} files\n${files.join('\n')}` : 'No files found';
    return { name: 'Grep', input, content, toolUseResult: { mode, numFiles: files.length, filenames: mode === 'content' ? [] : files, content: mode === 'content' ? content : undefined, numLines: hits.length }, durationMs: 120 };
  }

  private readonly grepCache = new Map<string, { hits: string[]; files: string[] }>();

  /** Matching lines (at most 20) and files for a literal pattern, over the small files of the repo. */
  private grepRepo(pattern: string): { hits: string[]; files: string[] } {
    const cached = this.grepCache.get(pattern);
    if (cached) return cached;
    const hits: string[] = [];
    const files: string[] = [];
    for (const spec of TREE) {
      if (BIG_FILES.includes(spec.path)) continue;
      const lines = this.repo.lines(spec.path);
      let found = false;
      for (let i = 0; i < lines.length && hits.length < 20; i++) {
        if ((lines[i] as string).includes(pattern)) {
          found = true;
          hits.push(`${abs(spec.path)}:${i + 1}:${lines[i]}`);
        }
      }
      if (found) files.push(abs(spec.path));
    }
    const result = { hits, files };
    this.grepCache.set(pattern, result);
    return result;
  }

  private globCall(): ToolCall {
    const [pattern, test] = this.r.pick(GLOBS);
    const files = TREE.filter((f) => test(f.path)).map((f) => abs(f.path));
    return { name: 'Glob', input: { pattern }, content: files.length > 0 ? files.join('\n') : 'No files found', toolUseResult: { filenames: files, durationMs: this.r.int(8, 90), numFiles: files.length, truncated: false }, durationMs: 50 };
  }

  private todoWrite(turn: Turn, stage: number): ToolCall {
    const t = turn.task;
    const steps = turn.lang === 'zh'
      ? [[`阅读 ${t.files[0]} 的现有实现`, `正在阅读 ${t.files[0]}`], [`修复 \`${t.symbol}\``, `正在修复 \`${t.symbol}\``], ['补充测试用例', '正在补充测试用例'], ['运行全部测试', '正在运行测试']]
      : turn.lang === 'ja'
      ? [[`${t.files[0]} の現状を確認する`, `${t.files[0]} の現状を確認中`], [`\`${t.symbol}\` を修正する`, `\`${t.symbol}\` を修正中`], ['テストケースを追加する', 'テストケースを追加中'], ['テストをすべて実行する', 'テストを実行中']]
      : [[`Read the current ${t.symbol} implementation`, `Reading the current ${t.symbol} implementation`], [`Fix ${t.symbol} (${t.title.toLowerCase()})`, `Fixing ${t.symbol}`], [`Add tests in ${t.test}`, `Adding tests in ${t.test}`], [t.lang === 'py' ? 'Run pytest' : 'Run npm test and tsc', 'Running the test suite']];
    const oldTodos = turn.todos;
    const todos: Todo[] = steps.map(([content, activeForm], i) => ({ content: content as string, activeForm: activeForm as string, status: i < stage ? 'completed' : i === stage ? 'in_progress' : 'pending' }));
    turn.todos = todos;
    return { name: 'TodoWrite', input: { todos }, content: 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable', toolUseResult: { oldTodos, newTodos: todos }, durationMs: 10 };
  }

  private bash(_turn: Turn, command: string, description: string, stdout: string, isError = false, durationMs = 900): ToolCall {
    return { name: 'Bash', input: { command, description }, content: stdout === '' ? 'Tool ran without output or errors' : stdout, isError: isError || undefined, toolUseResult: isError ? `Error: ${stdout}` : { stdout, stderr: '', interrupted: false, isImage: false }, durationMs };
  }

  private tscCall(turn: Turn): ToolCall {
    if (turn.task.lang === 'py') return this.bash(turn, 'cd scripts/etl && python -m mypy .', 'Type-check the ETL scripts', 'Success: no issues found in 6 source files');
    if (turn.edits.length > 0 && this.r.chance(0.3)) {
      const e = turn.edits[turn.edits.length - 1] as EditRecord;
      const out = `${e.path}(${e.line + 1},${this.r.int(5, 40)}): error TS2322: Type 'number | undefined' is not assignable to type 'number'.\n  Type 'undefined' is not assignable to type 'number'.\n\nFound 1 error in ${e.path}:${e.line + 1}\n`;
      return this.bash(turn, 'npx tsc --noEmit', 'Type-check the project', out, true, 4000);
    }
    return this.bash(turn, 'npx tsc --noEmit && echo "tsc: ok"', 'Type-check the project', 'tsc: ok', false, 4000);
  }

  private testCall(turn: Turn, mustPass: boolean): ToolCall {
    const t = turn.task;
    turn.testRuns++;
    const fail = !mustPass && turn.failuresLeft > 0;
    turn.lastWasFailure = fail;
    const single = this.r.chance(0.5);
    const cmd = t.lang === 'py' ? (single ? `cd scripts/etl && python -m pytest ${t.test.replace('scripts/etl/', '')} -q` : 'cd scripts/etl && python -m pytest -q') : single ? `npx vitest run ${t.test}` : 'npm test';
    const out = t.lang === 'py' ? this.pytestOutput(t, fail) : this.vitestOutput(t, fail, single);
    return this.bash(turn, cmd, fail || this.r.chance(0.5) ? 'Run the tests' : 'Run the test suite', out, fail, this.r.int(2_000, 12_000));
  }

  private vitestOutput(t: Task, fail: boolean, single: boolean): string {
    const out: string[] = single ? [] : ['', '> ledgerly@0.9.3 test', '> vitest run', ''];
    out.push(` RUN  v3.2.4 ${ROOT}`, '');
    const files = single ? [t.test] : TREE.filter((f) => f.kind === 'test-ts').map((f) => f.path);
    let total = 0;
    let failed = 0;
    for (const file of files) {
      const n = this.r.int(6, 24);
      total += n;
      if (fail && file === t.test) {
        const k = this.r.int(1, Math.min(2, t.cases.length));
        failed += k;
        out.push(` ❯ ${file} (${n} tests | ${k} failed) ${this.r.int(8, 90)}ms`);
        for (let i = 0; i < k; i++) out.push(`   × ${t.suite} > ${t.cases[i]} ${this.r.int(1, 20)}ms`, `     → expected ${t.received} to ${this.r.pick(['deeply equal', 'be'])} ${t.expected}`);
      } else {
        out.push(` ✓ ${file} (${n} tests) ${this.r.int(3, 120)}ms`);
      }
    }
    if (fail) {
      out.push('', `⎯⎯⎯⎯⎯⎯⎯ Failed Tests ${failed} ⎯⎯⎯⎯⎯⎯⎯`, '', ` FAIL  ${t.test} > ${t.suite} > ${t.cases[0]}`);
      const line = this.r.int(20, 90);
      if (t.thrown) {
        out.push(t.thrown, ` ❯ ${t.symbol} ${t.files[0]}:${this.r.int(20, 120)}:${this.r.int(5, 40)}`, ` ❯ ${t.test}:${line}:${this.r.int(5, 30)}`, '', '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯', 'Stack trace:');
        out.push(`    at ${t.symbol} (${abs(t.files[0] as string)}:${this.r.int(20, 120)}:${this.r.int(5, 40)})`, `    at Object.<anonymous> (${abs(t.test)}:${line}:${this.r.int(5, 30)})`, `    at runTest (file://${ROOT}/node_modules/@vitest/runner/dist/index.js:781:11)`, `    at runSuite (file://${ROOT}/node_modules/@vitest/runner/dist/index.js:909:15)`, `    at runFiles (file://${ROOT}/node_modules/@vitest/runner/dist/index.js:958:5)`);
      } else {
        out.push(`AssertionError: expected ${t.received} to deeply equal ${t.expected}`, '', '- Expected', '+ Received', '', `- ${t.expected}`, `+ ${t.received}`, '', ` ❯ ${t.test}:${line}:${this.r.int(10, 40)}`);
        out.push(`    ${line - 2}|   it('${t.cases[0]}', () => {`, `    ${line - 1}|     const input = money(100);`, `    ${line}|     expect(${t.symbol}(input, [1, 1, 1])).toEqual(${t.expected});`, `       |                                       ^`, `    ${line + 1}|   });`);
      }
      out.push('', '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯', '');
    }
    out.push('', ` Test Files  ${fail ? `1 failed | ${files.length - 1} passed` : `${files.length} passed`} (${files.length})`, `      Tests  ${fail ? `${failed} failed | ${total - failed} passed` : `${total} passed`} (${total})`, `   Start at  ${new Date(this.now).toISOString().slice(11, 19)}`, `   Duration  ${(this.r.int(600, 4000) / 1000).toFixed(2)}s (transform ${this.r.int(100, 600)}ms, setup 0ms, collect ${this.r.int(200, 900)}ms, tests ${this.r.int(30, 900)}ms, environment 0ms, prepare ${this.r.int(100, 500)}ms)`, '');
    return out.join('\n');
  }

  private pytestOutput(t: Task, fail: boolean): string {
    const n = this.r.int(18, 40);
    const out = ['============================= test session starts ==============================', 'platform linux -- Python 3.12.11, pytest-8.4.2, pluggy-1.6.0', `rootdir: ${ROOT}/scripts/etl`, 'configfile: pyproject.toml', 'testpaths: tests', `collected ${n} items`, ''];
    const k = fail ? 1 : 0;
    out.push(`tests/test_import_rates.py ${'.'.repeat(this.r.int(6, 12))}`, `tests/test_reconcile.py ${'.'.repeat(this.r.int(6, 14))}${fail ? 'F' : ''}`, '');
    if (fail) {
      const line = this.r.int(30, 120);
      out.push('=================================== FAILURES ===================================', `_______________________ ${t.cases[0]} _______________________`, '');
      out.push(`transactions = [BankTransaction(txn_id='T1000', amount=Decimal('120.50'), booked_at='2026-02-03'), BankTransaction(txn_id='T1000', amount=Decimal('120.50'), booked_at='2026-02-03')]`);
      out.push('caplog = <_pytest.logging.LogCaptureFixture object at 0x7f3a2c1d5e80>', '', `    def ${t.cases[0]}(transactions, caplog):`, `        result = ${t.symbol}(transactions)`, `>       assert len(result) == ${t.expected}`, `E       AssertionError: assert ${t.received} == ${t.expected}`, `E        +  where ${t.received} = len([...])`, '', `${t.test.replace('scripts/etl/', '')}:${line}: AssertionError`);
      out.push('------------------------------ Captured log call -------------------------------', `INFO     ${t.files[0]?.split('/').pop()?.replace('.py', '')}:${t.files[0]?.split('/').pop()}:${this.r.int(20, 90)} matched ${t.received} payments`);
      out.push('=========================== short test summary info ============================', `FAILED ${t.test.replace('scripts/etl/', '')}::${t.cases[0]} - AssertionError: assert ${t.received} == ${t.expected}`);
    }
    out.push(`${fail ? `========================= ${k} failed, ${n - k} passed` : `============================== ${n} passed`} in ${(this.r.int(200, 3000) / 1000).toFixed(2)}s ==============================`);
    return out.join('\n');
  }

  private listing(dir: string): string {
    const entries = TREE.filter((f) => f.path.startsWith(`${dir}/`)).map((f) => f.path.slice(dir.length + 1));
    const names = [...new Set(entries.map((e) => (e.includes('/') ? `${e.split('/')[0]}/` : e)))];
    const out = [`total ${names.length * 8}`, 'drwxr-xr-x  6 dev dev 4096 Mar  2 08:41 .', 'drwxr-xr-x 12 dev dev 4096 Mar  2 08:40 ..'];
    for (const name of names) {
      const isDir = name.endsWith('/');
      const size = isDir ? 4096 : utf8Length(this.repo.content(`${dir}/${name}`));
      out.push(`${isDir ? 'drwxr-xr-x' : '-rw-r--r--'}  1 dev dev ${String(size).padStart(6)} Feb ${String(this.r.int(10, 28)).padStart(2)} ${String(this.r.int(8, 19)).padStart(2, '0')}:${String(this.r.int(0, 59)).padStart(2, '0')} ${name.replace(/\/$/, '')}`);
    }
    return out.join('\n');
  }

  private gitLog(n: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(`${this.r.hex(7)} ${this.r.pick(['fix', 'feat', 'chore', 'refactor', 'test', 'docs'])}(${this.r.pick(['money', 'currency', 'routes', 'etl', 'tax', 'i18n', 'billing'])}): ${r2(this.r)}`);
    return out.join('\n');
  }

  private gitStatus(turn: Turn): string {
    const paths = [...new Set(turn.edits.map((e) => e.path))];
    return paths.length > 0 ? paths.map((p) => (p.includes('edge') ? `?? ${p}` : ` M ${p}`)).join('\n') : '';
  }

  private gitDiff(turn: Turn): string {
    if (turn.edits.length === 0) return '';
    const out: string[] = [];
    for (const e of turn.edits.slice(-6)) {
      out.push(`diff --git a/${e.path} b/${e.path}`, `index ${this.r.hex(7)}..${this.r.hex(7)} 100644`, `--- a/${e.path}`, `+++ b/${e.path}`);
      out.push(`@@ -${e.line},${e.oldLines.length} +${e.line},${e.newLines.length} @@`);
      const oldSet = new Set(e.oldLines);
      for (const l of e.newLines) out.push(oldSet.has(l) ? ` ${l}` : `+${l}`);
    }
    return out.join('\n');
  }

  /** One 20–60 KB output: a big file read, a verbose test run, a long log or `git log -p`. */
  private longOutput(turn: Turn): ToolCall {
    const kind = this.r.weighted<string>([
      ['big-read', 3],
      ['verbose', 1],
      ['log', 1],
      ['gitlog', 1],
    ]);
    if (kind === 'big-read') {
      const path = this.r.pick(BIG_FILES);
      const call = this.readCall(path);
      // Big files are read whole, even when readCall chose a window.
      if (call.input.offset !== undefined) {
        const lines = this.repo.lines(path);
        return { ...call, input: { file_path: abs(path) }, content: numbered(lines, 1) + READ_REMINDER, toolUseResult: { type: 'text', file: { filePath: abs(path), content: lines.join('\n'), numLines: lines.length, startLine: 1, totalLines: lines.length } } };
      }
      return call;
    }
    const target = this.r.int(20_000, 60_000);
    const out: string[] = [];
    let size = 0;
    const push = (...lines: string[]): void => {
      for (const l of lines) {
        out.push(l);
        size += l.length + 1;
      }
    };
    if (kind === 'verbose') {
      push(` RUN  v3.2.4 ${ROOT}`);
      while (size < target) {
        const file = this.r.pick(TREE.filter((f) => f.kind === 'test-ts')).path;
        push(` ✓ ${file} > ${this.r.pick(NOUNS)} > ${this.r.pick(['returns', 'rejects', 'keeps', 'handles', 'rounds', 'formats'])} ${this.r.pick(NOUNS)}s ${this.r.pick(PURPOSES)} ${this.r.int(0, 40)}ms`);
      }
      push(` Test Files  7 passed (7)`);
      return this.bash(turn, 'npx vitest run --reporter=verbose', 'Run all tests with verbose output', out.join('\n'), false, 9000);
    }
    if (kind === 'log') {
      const d = new Date(this.now - 86_400_000);
      while (size < target) {
        d.setTime(d.getTime() + this.r.int(50, 4000));
        const level = this.r.weighted<string>([['info', 8], ['debug', 4], ['warn', 1], ['error', 0.3]]);
        push(JSON.stringify({ level, time: d.toISOString(), pid: 4127, msg: `${this.r.pick(VERBS)} ${this.r.pick(NOUNS)}`, id: `${this.r.pick(['inv', 'cus', 'pay'])}_${this.r.hex(10)}`, ms: this.r.int(1, 900), ...(level === 'error' ? { err: { type: 'LedgerError', code: this.r.pick(ERROR_CODES), stack: `LedgerError: ${this.r.pick(ERROR_CODES)}\n    at ${this.r.pick(VERBS)}${cap(this.r.pick(NOUNS))} (${abs('src/services/billing.ts')}:${this.r.int(10, 300)}:${this.r.int(3, 30)})` } } : {}) }));
      }
      return this.bash(turn, 'tail -n 2000 logs/api.log', 'Look at the recent API log', out.join('\n'), false, 300);
    }
    while (size < target) {
      push(`commit ${this.r.hex(40)}`);
      push(`Author: ${this.r.pick(['Mika Tanaka <mika@ledgerly.dev>', 'Sam Ortiz <sam@ledgerly.dev>', 'Li Wei <li.wei@ledgerly.dev>'])}`);
      push(`Date:   ${new Date(this.now - this.r.int(1, 90) * 86_400_000).toUTCString()}`);
      push('', `    ${r2(this.r)}`, '');
      const path = this.r.pick(TREE.filter((f) => f.kind === 'ts')).path;
      const lines = this.repo.lines(path);
      const at = this.r.int(0, Math.max(0, lines.length - 20));
      push(`diff --git a/${path} b/${path}`);
      push(`--- a/${path}`);
      push(`+++ b/${path}`);
      push(`@@ -${at + 1},12 +${at + 1},13 @@`);
      for (const l of lines.slice(at, at + 12)) push(this.r.chance(0.15) ? `-${l}` : ` ${l}`);
      push(`+${lines[at + 3] ?? ''} // ${r2(this.r)}`);
    }
    return this.bash(turn, `git log -p -20 -- src`, 'Show recent history with patches', out.join('\n'), false, 400);
  }
}

function r2(r: Rng): string {
  return `${r.pick(['handle', 'fix', 'add', 'remove', 'rename', 'simplify', 'cache'])} ${r.pick(NOUNS)} ${r.pick(['rounding', 'lookup', 'pagination', 'validation', 'dedupe', 'logging', 'edge cases'])}`;
}

/** Rough token estimate of `chars` characters (English prose and code average ~3.6 chars/token). */
function tokensOf(chars: number): number {
  return Math.ceil(chars / 3.6);
}
