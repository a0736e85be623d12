/**
 * What the count pool (in the engine worker) and its count workers say to each other, how many
 * count workers a machine gets, and the errors a pooled count can end with. Shared by both sides,
 * and by the Node threads that the tests and the bench run the same counting code in.
 */
import type { BlockType, Entry, Role } from '../../core/journal/entry.ts';
import type { CounterId } from '../../core/tokens/counters.ts';

/**
 * Pool to count worker. `warm` loads a counter's tables (answered by `ready` or `unavailable`); the
 * pool sends `count` only to a worker ready for that counter, one at a time; `cancel` stops it at
 * its next slice.
 */
export type CountRequest =
  | { type: 'warm'; counter: CounterId }
  | { type: 'count'; taskId: number; counter: CounterId; entries: Entry[] }
  | { type: 'cancel'; taskId: number };

/** Count worker to pool. Every `count` ends with exactly one of `done`, `cancelled` or `failed`. */
export type CountReply =
  | { type: 'ready'; counter: CounterId }
  /** The counter could not be loaded here (its tables failed to download, say): the worker is of no use. */
  | { type: 'unavailable'; counter: CounterId; message: string }
  /** Entries of the task fully counted so far. */
  | { type: 'progress'; taskId: number; done: number }
  | { type: 'done'; taskId: number; totals: Uint32Array; byKind: Record<BlockType, number>; byRole: Record<Role, number> }
  | { type: 'cancelled'; taskId: number }
  | { type: 'failed'; taskId: number; name: string; message: string };

/** What a count worker reports to the pool. */
export interface CountWorkerEvents {
  message(reply: CountReply): void;
  /** The worker stopped: an uncaught error, a message it could not read, an exit. */
  crash(reason: string): void;
}

/** The pool's handle on one count worker (a Web Worker in the app, a Node thread or a test double elsewhere). */
export interface CountWorkerHandle {
  post(request: CountRequest, transfer?: ArrayBuffer[]): void;
  terminate(): void;
}

/** Starts one count worker wired to `events`. */
export type CountWorkerFactory = (events: CountWorkerEvents) => CountWorkerHandle;

/**
 * Most threads counting at once: the engine worker and up to three count workers. Default 4. Each
 * count worker holds its own copy of the tokenizer tables (o200k: about 20 MB of heap, 60-90 MB of
 * process memory once loaded and counting, measured in a Node thread), so three cost some 250 MB;
 * more would take memory that phones and small laptops cannot spare, for a speed-up that the engine
 * worker's share of the work (cloning the entries out, merging the answers) limits anyway.
 */
export const MAX_POOL_SIZE = 4;

/**
 * Threads that count a large journal on this machine, the engine worker included: its logical
 * cores (`navigator.hardwareConcurrency`), at most `cap`, at least 1. One when the number is 1 or
 * unknown: then the engine worker counts alone, as it does for small journals.
 */
export function poolSize(hardwareConcurrency: number | undefined, cap: number = MAX_POOL_SIZE): number {
  if (hardwareConcurrency === undefined || !Number.isFinite(hardwareConcurrency) || hardwareConcurrency < 1) return 1;
  return Math.max(1, Math.min(Math.floor(hardwareConcurrency), Math.floor(cap)));
}

/** A count worker stopped (an uncaught error, memory, a message it could not read) while it counted part of a job. */
export class CountWorkerCrashedError extends Error {
  override name = 'CountWorkerCrashedError';
}

/** No thread of the pool could load the counter (its tables failed to download, say), or none could be started. */
export class CountUnavailableError extends Error {
  override name = 'CountUnavailableError';
}

/** The text of a crash, as the user reads it. */
export function crashMessage(reason: string): string {
  return `A token-counting worker stopped unexpectedly: ${reason}. The count was stopped and nothing was stored; a fresh worker is started for the next job: run it again.`;
}

/** Rebuilds an error a count worker reported (errors cross as {name, message}). */
export function reportedError(reply: { name: string; message: string }): Error {
  const error = new Error(reply.message);
  error.name = reply.name;
  return error;
}
