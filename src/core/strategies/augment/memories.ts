/**
 * Memories compression (seed 000 §6.4, §11, A11): the agent's long-term memories are rewritten by
 * a model with their own prompt once they have more lines than allowed. The planner decides; the
 * N most recent memories are kept verbatim and only the older ones go to the model, asked for
 * the target line count minus those kept.
 *
 * Memories come from the `memories` option (one per line, oldest first): they are not part of a
 * transcript, just as Augment keeps them in agent state beside the chat history. Once a run has
 * compressed them, the compressed memories are that state: the next run of the conversation
 * (continuing from it, or the next compaction of a replay) starts from them.
 */
import { unwrapTranscript, wrapTranscript } from '../../compaction/serialize.ts';
import type { CompactionInput, Plan, SummaryTask } from '../../compaction/types.ts';
import { fmt } from './format.ts';

export interface MemoriesParams {
  /** Compress when `memories.split('\n').length` is greater than this (the seed's test). */
  maxLines: number;
  /** Lines the result should have, recent ones included. */
  compressionTarget: number;
  numRecentMemoriesToKeep: number;
  /** Prompt file id; empty skips compression (§6.4.1). */
  compressionPrompt: string;
}

export interface MemoriesPlan {
  needed: boolean;
  reason: string;
  /** Lines as the seed counts them (`split('\n')`, blank lines included). */
  lineCount: number;
  /** Older memories the model rewrites. */
  toCompress: string[];
  /** The most recent memories, kept as they are. */
  keepVerbatim: string[];
  /** Lines asked of the model for the older part. */
  targetLines: number;
}

export const MEMORIES_TASK_ID = 'augment-memories';

export function planMemoriesCompression(memories: string, params: MemoriesParams): MemoriesPlan {
  const lineCount = memories === '' ? 0 : memories.split('\n').length;
  const lines = memories.split('\n').filter((line) => line.trim() !== '');
  const none = (reason: string): MemoriesPlan => ({ needed: false, reason, lineCount, toCompress: [], keepVerbatim: lines, targetLines: lines.length });
  if (lineCount <= params.maxLines) return none(`memories ${fmt(lineCount)} lines <= max ${fmt(params.maxLines)}: not compressed`);
  if (params.compressionPrompt.trim() === '') return none('compressionPrompt is empty: memories are not compressed (§6.4.1)');
  const keep = Math.min(params.numRecentMemoriesToKeep, lines.length);
  const toCompress = lines.slice(0, lines.length - keep);
  const keepVerbatim = lines.slice(lines.length - keep);
  if (toCompress.length === 0) return none(`all ${fmt(lines.length)} memories are among the ${fmt(keep)} most recent kept verbatim: nothing to compress`);
  const targetLines = Math.max(1, params.compressionTarget - keepVerbatim.length);
  return {
    needed: true,
    reason: `memories ${fmt(lineCount)} lines > max ${fmt(params.maxLines)}: compress the ${fmt(toCompress.length)} older ones to ${fmt(targetLines)} lines, keep the ${fmt(keepVerbatim.length)} most recent verbatim (target ${fmt(params.compressionTarget)})`,
    lineCount, toCompress, keepVerbatim, targetLines,
  };
}

/** The summary task for a needed compression; it covers no journal entries (`from > to`). */
export function memoriesTask(plan: MemoriesPlan, prompt: string): SummaryTask {
  return {
    id: MEMORIES_TASK_ID,
    prompt,
    from: 0,
    to: -1,
    vars: {
      memories: wrapTranscript(plan.toCompress.join('\n'), 'memories'),
      recent_memories: wrapTranscript(plan.keepVerbatim.join('\n'), 'recent_memories'),
      target_lines: String(plan.targetLines),
      num_recent: String(plan.keepVerbatim.length),
    },
  };
}

/**
 * The memories after compression: the model's lines, then the recent ones verbatim. Lines past the
 * target are kept (cutting them would lose memories silently); `overTarget` says so.
 */
export function applyMemoriesCompression(plan: MemoriesPlan, compressed: string): { text: string; lines: number; overTarget: boolean } {
  const lines = compressed.split('\n').map((line) => line.trimEnd()).filter((line) => line.trim() !== '');
  const all = [...lines, ...plan.keepVerbatim];
  return { text: all.join('\n'), lines: all.length, overTarget: lines.length > plan.targetLines };
}

/** The agent's memories at this run: those the previous augment run left, else the option's. */
export function currentMemories(input: CompactionInput, optionMemories: string): { text: string; carried: boolean } {
  const state = input.previous?.strategy === 'augment' ? input.previous.state : undefined;
  return typeof state?.memories === 'string' ? { text: state.memories, carried: true } : { text: optionMemories, carried: false };
}

/** What a plan will do to the memories, for display: the lines compressed, those kept verbatim, the target. */
export function plannedMemories(plan: Plan): { compress: string[]; keep: string[]; targetLines: number } | undefined {
  const task = plan.summaries.find((t) => t.id === MEMORIES_TASK_ID);
  if (!task?.vars) return undefined;
  const lines = (text: string | undefined) => (text === undefined ? [] : unwrapTranscript(text).split('\n').filter((line) => line.trim() !== ''));
  return { compress: lines(task.vars.memories), keep: lines(task.vars.recent_memories), targetLines: Number(task.vars.target_lines) };
}
