/**
 * What a live session keeps besides its journal (table `liveSessions`, schema v6): how it was set
 * up (model choice, strategy and options, window, counter, .gitignore) and the folder it reads, so
 * that after a reload the same session can continue over the same folder.
 */
import type { StrategyId } from '../core/compaction/types.ts';
import type { MentionMode } from '../core/agent/mentions.ts';
import type { CounterId } from '../core/tokens/counters.ts';

/** Which model answers: the remote one configured in Settings > Models, the local WebLLM model, or a scripted one (demos, tests). */
export type LiveModelChoice =
  | { kind: 'settings'; /** "openai · gpt-4o-mini", as it was when the session started. */ label: string }
  | { kind: 'scripted'; /** File name of the script ("demo-script.json" for the bundled one). */ name: string; /** The parsed script. */ script: unknown }
  | { kind: 'webllm'; /** The WebLLM model id chosen in Settings > Models when the session started. */ modelId: string };

export interface LiveSessionConfig {
  model: LiveModelChoice;
  strategy: StrategyId;
  /** Raw option values as typed (parsed by the strategy). */
  options: Record<string, string>;
  /** Context window, tokens of `counter`. */
  contextWindow: number;
  counter: CounterId;
  /** Honour the folder's .gitignore files. */
  gitignore: boolean;
  /** `@file` mentions: a reminder naming the files (the seed) or their contents pasted (L8). Absent: 'reminder'. */
  mentions?: MentionMode;
}

export interface LiveSessionRow {
  conversationId: string;
  createdAt: number;
  config: LiveSessionConfig;
  folder: {
    name: string;
    /** True when it was read as a copy at pick time (`<input webkitdirectory>`): it cannot be kept. */
    snapshot: boolean;
    /** The File System Access handle (structured-cloned by IndexedDB); absent for a snapshot. */
    handle?: FileSystemDirectoryHandle;
  };
  /**
   * Model calls made so far, stopped and failed ones included (they leave no reply in the
   * journal): a scripted model resumed after a reload continues its script from them. Absent: none counted.
   */
  modelCalls?: number;
}
