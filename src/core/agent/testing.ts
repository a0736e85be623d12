/**
 * Small factories for the loop's tests: a fake model that answers from a list of steps (text,
 * tool calls, a context overflow, a reply that hangs until Stop) and records every request, a
 * tool from a function, and a folder held in memory. Pure: the tests read prompts/ themselves.
 */
import type { PromptLibrary } from '../compaction/prompts.ts';
import { echoSummarizer } from '../compaction/testing.ts';
import type { Usage } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { createAgentSession } from './session.ts';
import {
  ContextOverflowError, modelStopped, type AgentEvent, type AgentModel, type AgentSessionOptions, type AgentTool, type Folder,
  type FolderEntry, type ModelDelta, type ModelReply, type ModelRequest, type ToolOutcome,
} from './types.ts';

export interface FakeStep {
  text?: string;
  thinking?: string;
  toolCalls?: Array<{ name: string; input?: unknown; id?: string }>;
  usage?: Usage;
  /** 'overflow': reject with ContextOverflowError; another string: reject with that Error. */
  error?: string;
  /** Stream the text's first half, then wait until the request is aborted. */
  hang?: boolean;
}

export interface FakeModel extends AgentModel {
  /** Every request, in order (the context as it was sent). */
  requests: ModelRequest[];
}

/** A model answering each call with the next step (a function step sees the request); no step left is an error. */
export function fakeModel(steps: ReadonlyArray<FakeStep | ((request: ModelRequest) => FakeStep)>, model = 'fake-1'): FakeModel {
  const requests: ModelRequest[] = [];
  let next = 0;
  return {
    kind: 'fake',
    model,
    requests,
    async complete(request: ModelRequest, onDelta?: (delta: ModelDelta) => void): Promise<ModelReply> {
      requests.push({ ...request, context: [...request.context] });
      const raw = steps[next++];
      if (raw === undefined) throw new Error(`The fake model has no step ${next} (it was given ${steps.length}).`);
      const step = typeof raw === 'function' ? raw(request) : raw;
      await Promise.resolve();
      if (request.signal.aborted) throw modelStopped();
      if (step.error === 'overflow') throw new ContextOverflowError('prompt is too long: the request exceeds the context window');
      if (step.error !== undefined) throw new Error(step.error);
      const text = step.text ?? '';
      if (step.hang) {
        onDelta?.({ type: 'text', text: text.slice(0, Math.ceil(text.length / 2)) });
        return new Promise<never>((_, reject) => {
          request.signal.addEventListener('abort', () => reject(modelStopped()), { once: true });
        });
      }
      if (text) onDelta?.({ type: 'text', text });
      const toolCalls = (step.toolCalls ?? []).map((call, i) => ({ id: call.id ?? `call-${next}-${i + 1}`, name: call.name, input: call.input ?? {} }));
      for (const call of toolCalls) onDelta?.({ type: 'tool_call', id: call.id, name: call.name });
      return {
        text,
        ...(step.thinking ? { thinking: step.thinking } : {}),
        toolCalls,
        ...(step.usage ? { usage: step.usage } : {}),
        stop: toolCalls.length > 0 ? 'tool_use' : 'end',
        model,
      };
    },
  };
}

/** A tool named `name` that answers with `run` (text: a success). */
export function fakeTool(name: string, run: (input: unknown, signal: AbortSignal) => ToolOutcome | string | Promise<ToolOutcome | string>): AgentTool & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    spec: { name, description: `The ${name} test tool.`, parameters: { type: 'object', properties: {} } },
    async run(input, context) {
      calls.push(input);
      const out = await run(input, context.signal);
      return typeof out === 'string' ? { ok: true, text: out } : out;
    },
  };
}

/** A read-only folder held in memory: path -> text, directories implied by the paths. */
export function memoryFolder(files: Readonly<Record<string, string>>, name = 'project'): Folder & { reads: string[] } {
  const encoder = new TextEncoder();
  const reads: string[] = [];
  const dirs = new Set<string>(['']);
  for (const path of Object.keys(files)) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  return {
    name,
    snapshot: false,
    reads,
    list(path) {
      if (!dirs.has(path)) return Promise.reject(new Error(`No directory "${path}".`));
      const prefix = path === '' ? '' : `${path}/`;
      const out = new Map<string, FolderEntry>();
      for (const file of Object.keys(files)) {
        if (!file.startsWith(prefix)) continue;
        const [head, ...rest] = file.slice(prefix.length).split('/');
        if (head) out.set(head, { name: head, kind: rest.length > 0 ? 'directory' : 'file' });
      }
      return Promise.resolve([...out.values()]);
    },
    stat(path) {
      const text = files[path];
      if (text !== undefined) return Promise.resolve({ kind: 'file', size: encoder.encode(text).length, mtimeMs: 0 });
      return Promise.resolve(dirs.has(path) ? { kind: 'directory', size: 0, mtimeMs: 0 } : undefined);
    },
    read(path, range) {
      reads.push(path);
      const text = files[path];
      if (text === undefined) return Promise.reject(new Error(`No file "${path}".`));
      const bytes = encoder.encode(text);
      const offset = range?.offset ?? 0;
      return Promise.resolve(bytes.subarray(offset, range?.length === undefined ? undefined : offset + range.length));
    },
  };
}

/** The files of `fakeSession`'s folder: a small file and one of 2,000 characters (500 chars/4 tokens). */
export const FAKE_FILES: Readonly<Record<string, string>> = { 'a.txt': 'alpha file\n', 'big.txt': 'x'.repeat(2000) };

/**
 * A session over `FAKE_FILES` with a `read` tool, the fake model answering `steps`, the echo
 * summarizer, a clock that advances 1 s per reading, pi with a 4,000-token window (reserve 256,
 * keep 100) and chars/4; every event collected. `overrides.prompts` is required (read from disk by the test).
 */
export function fakeSession(
  steps: ReadonlyArray<FakeStep | ((request: ModelRequest) => FakeStep)>,
  overrides: Partial<AgentSessionOptions> & { prompts: PromptLibrary },
  tools?: AgentTool[],
) {
  const model = fakeModel(steps);
  const events: AgentEvent[] = [];
  const folder = memoryFolder(FAKE_FILES);
  const read = fakeTool('read', (input) => {
    const path = (input as { path?: string } | undefined)?.path ?? '';
    const text = FAKE_FILES[path];
    return text === undefined ? { ok: false, text: '', error: `No file ${path}.` } : { ok: true, text, path };
  });
  const summarizer = echoSummarizer();
  let clock = 1_700_000_000_000;
  const session = createAgentSession({
    model, tools: tools ?? [read], folder, strategy: { strategy: 'pi', options: { keepRecentTokens: 100, reserveTokens: 256 } }, contextWindow: 4000,
    counter: getEstimator('chars4'), summarizer, now: () => (clock += 1000), onEvent: (event) => events.push(event), ...overrides,
  });
  const of = <T extends AgentEvent['type']>(type: T) => events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
  return { session, model, events, of, folder, summarizer, read };
}
