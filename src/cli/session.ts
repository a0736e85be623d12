/**
 * `cli session`: the app's live agent loop in Node, over a real folder (read-only tools), with an
 * OpenAI-compatible or Anthropic server (a local Ollama or llama.cpp works) or a scripted model.
 * Each --prompt is one user turn, in order; the session is written as pi JSONL v3 to --out, and
 * --json prints the calls, compactions, overflow retries, tool calls and notes. The file is
 * rewritten after every entry (to a temporary file, then renamed), so a stop, a failure or a kill
 * at any moment leaves a valid session of every entry completed so far.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { withMentions } from '../core/agent/mentions.ts';
import { scriptedSummarizer } from '../core/agent/scripted-summarizer.ts';
import { createMtimeTracker } from '../core/agent/mtime.ts';
import { exportPiSession } from '../core/agent/pi-export.ts';
import { createScriptedModel } from '../core/agent/scripted-model.ts';
import { modelSummarizer, SUMMARY_SYSTEM_PROMPT_ID } from '../core/agent/model-summarizer.ts';
import { createAgentSession } from '../core/agent/session.ts';
import { createFolderTools } from '../core/agent/tools/index.ts';
import type { AgentEvent, AgentModel, TurnResult } from '../core/agent/types.ts';
import { getPrompt, type PromptLibrary } from '../core/compaction/prompts.ts';
import type { Summarizer } from '../core/compaction/summarizer.ts';
import type { Entry } from '../core/journal/entry.ts';
import { createOfflineSummarizer } from '../core/summarize/offline.ts';
import { getCounter } from '../core/tokens/counters.ts';
import { createAgentModel } from '../llm/agent/agent-model.ts';
import type { RemoteConfig } from '../llm/remote/remote-config.ts';
import { retryNotice } from '../llm/remote/retry-notice.ts';
import { loadPrompts } from './load.ts';
import { createNodeFolder } from './node-folder.ts';
import { parseSessionArgs, SessionUsageError, type SessionArgs } from './session-args.ts';

/** What `--json` prints. */
export interface SessionReport {
  calls: number;
  compactions: Array<{ atCall: number; trigger: string; tokensBefore: number; tokensAfter: number }>;
  overflowRetries: number;
  toolCalls: Array<{ name: string; path?: string; ok: boolean; error?: string }>;
  notes: string[];
  /** One per --prompt, in order. */
  turns: Array<{ prompt: string; status: TurnResult['status']; calls: number; error?: string }>;
  /** Entries written to --out, and that file. */
  entries: number;
  out: string;
}

function remoteOf(args: SessionArgs, env: NodeJS.ProcessEnv): RemoteConfig {
  const apiKey = env.FOLDLAB_API_KEY;
  return { presetId: 'custom', api: args.api, baseUrl: args.baseUrl!, model: args.model!, ...(apiKey ? { apiKey } : {}) };
}

function modelOf(args: SessionArgs, env: NodeJS.ProcessEnv, prompts: PromptLibrary, log: (line: string) => void): { model: AgentModel; summarizer: Summarizer } {
  if (args.script !== undefined) {
    let script: unknown;
    try {
      script = JSON.parse(readFileSync(args.script, 'utf8'));
    } catch (error) {
      throw new SessionUsageError(`--script ${args.script}: ${(error as Error).message}`);
    }
    // A script answers the session's calls only: its summaries are the offline summarizer's (paced by its summaryDelayMs).
    return { model: createScriptedModel(script), summarizer: scriptedSummarizer(script) };
  }
  // Each request is numbered and named, so a wait before a retry (a 429) says which one it holds up.
  let requests = 0;
  let current = 'request 1';
  const named = (inner: AgentModel, what: string): AgentModel => ({
    kind: inner.kind,
    model: inner.model,
    complete: (request, onDelta) => {
      current = `request ${++requests} (${what})`;
      return inner.complete(request, onDelta);
    },
  });
  const model = createAgentModel(remoteOf(args, env), { idleTimeoutMs: args.idleTimeoutMs, connectTimeoutMs: args.connectTimeoutMs, replyTimeoutMs: args.replyTimeoutMs, retry: { retryNetworkErrors: true, onRetry: (wait) => log(retryNotice(wait, current)) } });
  // Summaries by the session's own model (one model, one key), or offline when asked.
  return {
    model: named(model, 'a reply'),
    summarizer: args.summarizer === 'offline' ? createOfflineSummarizer() : modelSummarizer(named(model, 'a summary'), getPrompt(prompts, SUMMARY_SYSTEM_PROMPT_ID)),
  };
}

/** Runs the session; the report, and the JSONL written to `args.out`. `log` hears what the session waits for (default: stderr). */
export async function runSession(
  args: SessionArgs, env: NodeJS.ProcessEnv = process.env, signal: AbortSignal = new AbortController().signal,
  log: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
): Promise<SessionReport> {
  const folder = await createNodeFolder(resolve(args.dir));
  const prompts = loadPrompts();
  const { model, summarizer } = modelOf(args, env, prompts, log);
  const counter = await getCounter(args.counter);
  const mtimes = createMtimeTracker();
  const entries: Entry[] = [];
  const cwd = resolve(args.dir);
  const save = () => writeSession(args.out, entries, cwd, model.model);
  const report: SessionReport = { calls: 0, compactions: [], overflowRetries: 0, toolCalls: [], notes: [], turns: [], entries: 0, out: args.out };
  const onEvent = (event: AgentEvent) => {
    switch (event.type) {
      case 'entry':
        entries.push(event.entry);
        save();
        break;
      case 'call':
        report.calls++;
        break;
      case 'compaction':
        report.compactions.push({ atCall: event.atCall, trigger: event.trigger, tokensBefore: event.tokensBefore, tokensAfter: event.tokensAfter });
        break;
      case 'tool':
        report.toolCalls.push({ name: event.call.name, ...(event.outcome.path !== undefined ? { path: event.outcome.path } : {}), ok: event.outcome.ok, ...(event.outcome.error !== undefined ? { error: event.outcome.error } : {}) });
        break;
      case 'note':
        report.notes.push(event.text);
        if (/compacting and retrying once/.test(event.text)) report.overflowRetries++;
        break;
      default:
        break;
    }
  };
  const session = createAgentSession({
    model, folder, counter, summarizer, prompts, onEvent,
    tools: createFolderTools(folder, { gitignore: args.gitignore, mtimes }),
    strategy: { strategy: args.strategy, options: args.options },
    contextWindow: args.window,
    prepareInput: (text, turnSignal) => withMentions(text, folder, { prompts, gitignore: args.gitignore, mtimes, mode: args.mentions, signal: turnSignal }),
  });
  try {
    for (const prompt of args.prompts) {
      const result = await session.send(prompt, signal);
      report.turns.push({ prompt, status: result.status, calls: result.calls, ...(result.error !== undefined ? { error: result.error } : {}) });
      if (result.status !== 'done') break;
    }
  } finally {
    // Written whatever happened, so an error or a stop never loses the turns before it.
    report.notes.push(...save());
  }
  report.entries = entries.length;
  return report;
}

/** Writes the session as pi JSONL in one step (a temporary file renamed over `out`); the exporter's notes. */
function writeSession(out: string, entries: readonly Entry[], cwd: string, model: string): string[] {
  const exported = exportPiSession(entries, { cwd, model, createdAt: entries[0]?.timestamp ?? 0, title: `Live session over ${basename(cwd)}` });
  const partial = `${out}.${process.pid}.partial`;
  writeFileSync(partial, exported.text);
  renameSync(partial, out);
  return exported.notes;
}

export function formatSession(report: SessionReport): string {
  const lines = [
    `calls: ${report.calls}`,
    ...report.turns.map((turn, i) => `turn ${i + 1}: ${turn.status} after ${turn.calls} call${turn.calls === 1 ? '' : 's'}${turn.error ? ` (${turn.error})` : ''}`),
    `compactions: ${report.compactions.length}${report.compactions.map((c) => `\n  at call ${c.atCall} (${c.trigger}): ${c.tokensBefore} -> ${c.tokensAfter} tokens`).join('')}`,
    `overflow retries: ${report.overflowRetries}`,
    `tool calls: ${report.toolCalls.length}${report.toolCalls.map((t) => `\n  ${t.name}${t.path !== undefined ? ` ${t.path}` : ''}: ${t.ok ? 'ok' : `failed (${t.error ?? 'no reason given'})`}`).join('')}`,
    ...report.notes.map((note) => `note: ${note}`),
    `wrote ${report.entries} entries to ${report.out} (pi session JSONL v3)`,
  ];
  return lines.join('\n');
}

/** The command: exit code 0 when every turn finished, 1 when one failed or stopped, 2 on a usage error. */
export async function sessionMain(argv: readonly string[], usage: string): Promise<void> {
  let args: SessionArgs;
  try {
    args = parseSessionArgs(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    process.exitCode = 2;
    return;
  }
  const controller = new AbortController();
  // First Ctrl-C: stop the turn and write the session. A second one leaves at once: the file
  // already holds every completed entry.
  const stop = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('Stopping: writing the session (Ctrl-C again to quit now)\n');
    controller.abort();
  };
  process.on('SIGINT', stop);
  try {
    const report = await runSession(args, process.env, controller.signal);
    process.stdout.write(`${args.json ? JSON.stringify(report, null, 2) : formatSession(report)}\n`);
    if (report.turns.some((turn) => turn.status !== 'done')) process.exitCode = 1;
  } catch (error) {
    const err = error as Error & { code?: string; path?: string };
    process.stderr.write(`${err.code === 'ENOENT' ? `no such file or folder: ${err.path ?? ''}` : `${err.name}: ${err.message}`}\n`);
    process.exitCode = error instanceof SessionUsageError ? 2 : 1;
  } finally {
    process.off('SIGINT', stop);
  }
}
