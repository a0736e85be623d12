/**
 * One request in a fresh worker that is thrown away after it: the user's hook module and custom
 * plugin both run this way (each call isolated, nothing it sets up survives to the next). Spawns
 * the worker, posts the request, reads its replies, and on the first of an answer, a failure, the
 * time limit or a cancel it stops listening and terminates the worker. The worker itself is
 * injected: a Web Worker in the app, a worker thread in the CLI, an in-process fake in tests.
 */
import { CancelledError } from '../cancel.ts';

/** How a worker reports that it failed (a Web Worker's ErrorEvent, or a facade giving the same). */
export interface WorkerFailure {
  message?: string;
  lineno?: number;
  preventDefault?: () => void;
}

/** The part of a worker the runner uses. */
export interface ThrowawayWorker<Request, Reply> {
  postMessage(message: Request): void;
  terminate(): void;
  onmessage: ((event: { data: Reply }) => void) | null;
  onerror: ((event: WorkerFailure) => void) | null;
}

/** What reading a reply may do: settle the run, or keep waiting under a new time limit. */
export interface ReplyControl<T> {
  resolve(value: T): void;
  reject(error: Error): void;
  /** Keep waiting: the time limit starts again at `ms` from now and ends with `timedOut()`. */
  restartTimer(ms: number, timedOut: () => Error): void;
}

export interface ThrowawayRun<Reply, T> {
  /** Time the worker has to answer, ms, before the run rejects with `timedOut()`. */
  timeoutMs: number;
  timedOut: () => Error;
  /** What one reply means; a reply after the run settled is ignored. */
  read: (reply: Reply, control: ReplyControl<T>) => void;
  /** The error when the worker fails (an uncaught error, a module it could not start). */
  failed: (event: WorkerFailure) => Error;
  /** Aborting it stops the worker at once; the run rejects with `cancelled()` (default: a CancelledError). */
  signal?: AbortSignal;
  cancelled?: () => Error;
}

/** Runs `request` in a worker from `spawn` and terminates it when the run settles, however it does. */
export function runInThrowawayWorker<Request, Reply, T>(spawn: () => ThrowawayWorker<Request, Reply>, request: Request, run: ThrowawayRun<Reply, T>): Promise<T> {
  const cancelled = run.cancelled ?? (() => new CancelledError());
  if (run.signal?.aborted) return Promise.reject(cancelled());
  const worker = spawn();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => finish(() => reject(cancelled()));
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      worker.onmessage = null;
      worker.onerror = null;
      worker.terminate();
      settle();
    };
    const startTimer = (ms: number, timedOut: () => Error) => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(() => reject(timedOut())), ms);
    };
    const control: ReplyControl<T> = {
      resolve: (value) => finish(() => resolve(value)),
      reject: (error) => finish(() => reject(error)),
      restartTimer: (ms, timedOut) => {
        if (!settled) startTimer(ms, timedOut);
      },
    };
    startTimer(run.timeoutMs, run.timedOut);
    run.signal?.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = ({ data }) => {
      if (settled) return;
      try {
        run.read(data, control);
      } catch (error) {
        control.reject(error as Error);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      finish(() => reject(run.failed(event)));
    };
    worker.postMessage(request);
  });
}
