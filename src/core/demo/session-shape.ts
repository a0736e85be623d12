// The demo session generator's shared shapes: the repository root, the turn and tool-call records
// its steps pass around, the generator state the tool steps read, and the Read tool's text format.

import type { Task } from './data/tasks.ts';
import type { Repo } from './repo-files.ts';
import type { Rng } from './rng.ts';

export const ROOT = '/home/dev/src/ledgerly';

export const abs = (path: string): string => `${ROOT}/${path}`;

/** `cat -n` style numbering as Claude Code's Read tool returns it. */
export function numbered(lines: readonly string[], firstLine: number): string {
  const out: string[] = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) out[i] = `${String(firstLine + i).padStart(6, ' ')}→${lines[i]}`;
  return out.join('\n');
}

export const READ_REMINDER =
  '\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to improve or augment the code. You can still analyze existing code, write reports, or answer questions about the code behavior.\n</system-reminder>\n';


export type Lang = 'en' | 'ja' | 'zh';

export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  content: string;
  isError?: boolean;
  toolUseResult: unknown;
  /** Simulated tool run time, ms. */
  durationMs: number;
}

export interface EditRecord {
  path: string;
  line: number;
  oldLines: string[];
  newLines: string[];
}

export interface Todo {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  activeForm: string;
}

export interface Turn {
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

export type Block = { type: 'thinking'; thinking: string; signature: string } | { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** What the tool steps read from the generator: its randomness, the fake repo and the clock. */
export interface ToolContext {
  readonly r: Rng;
  readonly repo: Repo;
  /** The session's current time, epoch ms. */
  readonly now: number;
  /** Grep results by pattern (the repo does not change, so a pattern always finds the same lines). */
  readonly grepCache: Map<string, { hits: string[]; files: string[] }>;
}
