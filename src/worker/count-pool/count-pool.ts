/**
 * Counting a large journal on every core: the engine worker cuts it into contiguous shards, and a
 * pool of threads (the engine worker itself, plus count workers up to one per core, capped) counts
 * them; the per-entry totals come back merged in journal order: the same figures as one worker,
 * entry for entry. The engine's own share starts at once; a count worker takes shards only once
 * its tokenizer tables are loaded, so a slow start never makes a count slower than counting alone.
 * Workers are started on first use (or by `warm` while the file is still being read), take the
 * next shard as soon as they finish one, and are stopped after a while without work to free their
 * tables. A cancel answers at once and stops every thread at its next slice; a worker that crashes
 * fails its job with CountWorkerCrashedError and is replaced for the next one.
 */
import type { TokenCounter, CounterId } from '../../core/tokens/counters.ts';
import type { EntriesTokens } from '../../core/tokens/entry-tokens.ts';
import type { Entry } from '../../core/journal/entry.ts';
import {
  CountUnavailableError, CountWorkerCrashedError, crashMessage, reportedError, type CountReply, type CountWorkerFactory, type CountWorkerHandle,
} from './count-pool-protocol.ts';
import { countWork, mergeShards, planShards, type CountWork, type ShardRange } from './count-pool-shards.ts';
import { inThreadCountWorker } from './count-pool-serve.ts';
import { jobCancelled } from '../engine/protocol.ts';

/**
 * Smallest journal counted by the pool, in characters of text. Default 1,000,000 (about 250k
 * o200k tokens, a few hundred milliseconds in one worker); below it, cloning the entries out and
 * merging the answers cost more than they save, and the engine counts in place.
 */
export const POOL_MIN_CHARS = 1_000_000;

/**
 * Files at least this large start the pool's workers (loading their tokenizer tables) while they are
 * still being read. Default 4,000,000. Unit: bytes. Transcripts hold a quarter to two thirds of their
 * bytes as text, so a file this size usually reaches POOL_MIN_CHARS.
 */
export const POOL_WARM_BYTES = 4_000_000;

/** Shards per worker, so a worker that finishes early (or gets more of the core) takes another. Default 4. */
export const SHARDS_PER_WORKER = 4;

/** Time without work after which the workers are stopped. Default 30,000. Unit: ms. */
export const POOL_IDLE_MS = 30_000;

export interface CountPoolOptions {
  /** Starts a count worker (a Web Worker in the app, a Node thread in the bench). */
  spawn: CountWorkerFactory;
  /** Threads counting at most, the calling thread included when `inThread` (see poolSize). */
  size: number;
  /** The calling thread counts shards too, starting at once. Default true. */
  inThread?: boolean;
  /** Smallest journal the pool takes. Default POOL_MIN_CHARS. Unit: characters of text. */
  minChars?: number;
  /** Default SHARDS_PER_WORKER. */
  shardsPerWorker?: number;
  /** Default POOL_IDLE_MS; 0 keeps the workers until `close`. Unit: ms. */
  idleMs?: number;
}

/** Called with (entries counted, entries in all). */
export type PoolProgress = (done: number, total: number) => void;

interface Job {
  work: CountWork;
  counter: CounterId;
  ranges: ShardRange[];
  results: EntriesTokens[];
  done: number[];
  left: number;
  settled: boolean;
  onProgress: PoolProgress | undefined;
  resolve(result: EntriesTokens): void;
  reject(error: Error): void;
}

interface Task {
  id: number;
  job: Job;
  shard: number;
}

interface Slot {
  handle: CountWorkerHandle;
  task: Task | undefined;
  /** Sent a cancel for its task: it is busy until the task's last reply arrives. */
  cancelling: boolean;
  /** Counters whose tables this thread has loaded, and those it is loading. */
  ready: Set<CounterId>;
  loading: Set<CounterId>;
}

/** A slot's handle until its worker is started. */
const NOT_STARTED: CountWorkerHandle = { post: () => undefined, terminate: () => undefined };

export class CountPool {
  readonly size: number;
  private readonly minChars: number;
  private readonly shardsPerWorker: number;
  private readonly idleMs: number;
  private readonly inThread: boolean;
  private readonly slots: Slot[] = [];
  private queue: Task[] = [];
  private nextTaskId = 1;
  private spawned = 0;
  /** Why no worker can be started, or why a counter's tables cannot be loaded; forgotten when the pool next goes idle. */
  private spawnBroken: string | undefined;
  private readonly unavailable = new Map<CounterId, string>();
  private inThreadHandle: CountWorkerHandle | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: CountPoolOptions) {
    this.size = Math.max(1, Math.floor(options.size));
    this.inThread = options.inThread ?? true;
    this.minChars = options.minChars ?? POOL_MIN_CHARS;
    this.shardsPerWorker = Math.max(1, Math.floor(options.shardsPerWorker ?? SHARDS_PER_WORKER));
    this.idleMs = options.idleMs ?? POOL_IDLE_MS;
  }

  /** Count workers started so far (replacements included; the calling thread is not one). */
  get started(): number {
    return this.spawned;
  }

  /** Threads of the pool alive now, the calling thread's slot included. */
  get alive(): number {
    return this.slots.length;
  }

  /** True when a journal of `chars` characters counted with an exact counter would go to the pool. */
  takes(chars: number, counter: Pick<TokenCounter, 'exact'>): boolean {
    return this.size > 1 && counter.exact && chars >= this.minChars;
  }

  /** The work for the pool, or undefined when `entries` are better counted in place (see `takes`). */
  prepare(entries: readonly Entry[], counter: TokenCounter): CountWork | undefined {
    if (!this.takes(this.minChars, counter)) return undefined;
    const work = countWork(entries);
    return this.takes(work.chars, counter) ? work : undefined;
  }

  /** Starts every thread and has it load `counter`'s tables, so a count that follows starts at full speed. */
  warm(counter: CounterId): void {
    if (this.size < 2) return;
    this.prepareSlots(counter);
    this.armIdleTimer();
  }

  /** Counts `work` on the pool. Rejects with CancelledError as soon as `signal` aborts. */
  count(work: CountWork, counter: CounterId, signal: AbortSignal, onProgress?: PoolProgress): Promise<EntriesTokens> {
    return new Promise<EntriesTokens>((resolve, reject) => {
      if (signal.aborted) {
        reject(jobCancelled());
        return;
      }
      const ranges = planShards(work.weights, this.size * this.shardsPerWorker);
      const onAbort = () => this.fail(job, jobCancelled());
      const settle = () => signal.removeEventListener('abort', onAbort);
      const job: Job = {
        work, counter, ranges, results: [], done: ranges.map(() => 0), left: ranges.length, settled: false, onProgress,
        resolve: (result) => (settle(), resolve(result)),
        reject: (error) => (settle(), reject(error)),
      };
      if (ranges.length === 0) {
        job.settled = true;
        job.resolve(mergeShards([], [], 0));
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      for (let shard = 0; shard < ranges.length; shard++) this.queue.push({ id: this.nextTaskId++, job, shard });
      this.dispatch();
    });
  }

  /** Stops every thread; jobs still counting fail. */
  close(): void {
    clearTimeout(this.idleTimer);
    const stopped = new Error('The token-counting workers were stopped before the count finished.');
    for (const slot of this.slots.splice(0)) {
      slot.handle.terminate();
      if (slot.task) this.fail(slot.task.job, stopped);
    }
    for (const task of this.queue.splice(0)) this.fail(task.job, stopped);
  }

  private startSlot(factory: CountWorkerFactory): Slot {
    const slot: Slot = { handle: NOT_STARTED, task: undefined, cancelling: false, ready: new Set(), loading: new Set() };
    slot.handle = factory({
      message: (reply) => this.onReply(slot, reply),
      crash: (reason) => this.onCrash(slot, reason),
    });
    if (factory !== inThreadCountWorker) this.spawned++;
    this.slots.push(slot);
    return slot;
  }

  /** Has every thread (started up to `size`) load `counter`, unless it has or is loading it. */
  private prepareSlots(counter: CounterId): void {
    if (this.inThread && !this.slots.some((slot) => slot.handle === this.inThreadHandle)) {
      this.inThreadHandle = this.startSlot(inThreadCountWorker).handle;
    }
    if (this.unavailable.has(counter)) return;
    while (this.slots.length < this.size && this.spawnBroken === undefined) {
      try {
        this.startSlot(this.options.spawn);
      } catch (error) {
        this.spawnBroken = `a token-counting worker could not be started (${error instanceof Error ? error.message : String(error)})`;
      }
    }
    for (const slot of this.slots) {
      if (slot.ready.has(counter) || slot.loading.has(counter)) continue;
      slot.loading.add(counter);
      slot.handle.post({ type: 'warm', counter });
    }
  }

  /** Gives queued shards to idle threads ready for their counter; has threads load it otherwise. */
  private dispatch(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    for (let i = 0; i < this.queue.length;) {
      const task = this.queue[i]!;
      const slot = this.slots.find((s) => s.task === undefined && s.ready.has(task.job.counter));
      if (slot === undefined) {
        this.prepareSlots(task.job.counter);
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      const range = task.job.ranges[task.shard]!;
      slot.task = task;
      slot.cancelling = false;
      slot.handle.post({ type: 'count', taskId: task.id, counter: task.job.counter, entries: task.job.work.entries.slice(range.start, range.end) });
    }
    // No thread has or is loading a queued job's counter: it fails with the reason.
    for (const task of [...this.queue]) {
      const counter = task.job.counter;
      if (this.slots.some((s) => s.ready.has(counter) || s.loading.has(counter))) continue;
      const reason = this.unavailable.get(counter) ?? this.spawnBroken ?? 'no token-counting worker is running';
      this.fail(task.job, new CountUnavailableError(`The count could not run: ${reason}.`));
    }
    this.armIdleTimer();
  }

  private onReply(slot: Slot, reply: CountReply): void {
    if (!this.slots.includes(slot)) return;
    if (reply.type === 'ready' || reply.type === 'unavailable') {
      slot.loading.delete(reply.counter);
      if (reply.type === 'ready') slot.ready.add(reply.counter);
      else this.unavailable.set(reply.counter, reply.message);
      this.dispatch();
      return;
    }
    const task = slot.task;
    // Late replies of a task the slot no longer runs are dropped.
    if (task === undefined || reply.taskId !== task.id) return;
    const job = task.job;
    switch (reply.type) {
      case 'progress':
        if (job.settled) return;
        job.done[task.shard] = reply.done;
        job.onProgress?.(job.done.reduce((sum, n) => sum + n, 0), job.work.entries.length);
        return;
      case 'done': {
        slot.task = undefined;
        if (!job.settled) {
          const range = job.ranges[task.shard]!;
          job.results[task.shard] = { totals: reply.totals, byKind: reply.byKind, byRole: reply.byRole };
          job.done[task.shard] = range.end - range.start;
          job.left--;
          if (job.left === 0) this.finish(job);
          else job.onProgress?.(job.done.reduce((sum, n) => sum + n, 0), job.work.entries.length);
        }
        break;
      }
      case 'cancelled':
        slot.task = undefined;
        break;
      case 'failed':
        slot.task = undefined;
        this.fail(job, reportedError(reply));
        break;
    }
    this.dispatch();
  }

  private finish(job: Job): void {
    let merged: EntriesTokens;
    try {
      merged = mergeShards(job.ranges, job.results, job.work.entries.length);
    } catch (error) {
      this.fail(job, error as Error);
      return;
    }
    job.settled = true;
    job.resolve(merged);
  }

  private onCrash(slot: Slot, reason: string): void {
    if (!this.slots.includes(slot)) return;
    this.slots.splice(this.slots.indexOf(slot), 1);
    slot.handle.terminate();
    if (slot.task) this.fail(slot.task.job, new CountWorkerCrashedError(crashMessage(reason)));
    this.dispatch();
  }

  /** Settles `job` with `error` once: its queued shards are dropped and its running ones cancelled. */
  private fail(job: Job, error: Error): void {
    if (job.settled) return;
    job.settled = true;
    this.queue = this.queue.filter((task) => task.job !== job);
    for (const slot of this.slots) {
      if (slot.task?.job === job && !slot.cancelling) {
        slot.cancelling = true;
        slot.handle.post({ type: 'cancel', taskId: slot.task.id });
      }
    }
    job.reject(error);
    this.armIdleTimer();
  }

  private armIdleTimer(): void {
    if (this.idleMs <= 0 || this.idleTimer !== undefined || this.queue.length > 0 || this.slots.some((s) => s.task !== undefined)) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.queue.length > 0 || this.slots.some((s) => s.task !== undefined)) return;
      for (const slot of this.slots.splice(0)) slot.handle.terminate();
      this.spawnBroken = undefined;
      this.unavailable.clear();
    }, this.idleMs);
  }
}
