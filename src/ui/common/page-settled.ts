/**
 * When the page has settled after it opened: nothing has run for a quiet spell (on a first visit,
 * the demo's import and its count) and the browser then had an idle moment. Work that can wait
 * starts there, such as registering the service worker, which downloads and stores the whole app
 * (about 6 MB): on a first visit it used to share the machine's cores with the demo's first render.
 * Whatever runs, the page counts as settled after `maxWaitMs`.
 */

/** How long nothing must run before the page counts as settled. Default 1,000. Unit: ms. */
export const QUIET_MS = 1_000;
/** Settled at the latest this long after the page opened, even if jobs keep running. Default 30,000. Unit: ms. */
export const MAX_WAIT_MS = 30_000;
/** Longest wait for the browser's idle callback once quiet. Default 2,000. Unit: ms. */
export const IDLE_TIMEOUT_MS = 2_000;

export interface SettleSource {
  /** Whether a job runs now. */
  busy: () => boolean;
  /** Calls `changed` whenever what runs may have changed; returns the unsubscribe. */
  subscribe: (changed: () => void) => () => void;
}

export interface SettleOptions {
  quietMs?: number;
  maxWaitMs?: number;
  /** Runs `run` when the browser is idle (requestIdleCallback where there is one); returns a cancel. */
  whenIdle?: (run: () => void) => () => void;
}

/** Calls `settled` once, when the page has settled (see the module's comment). Returns a cancel. */
export function whenPageSettles(source: SettleSource, settled: () => void, options: SettleOptions = {}): () => void {
  const { quietMs = QUIET_MS, maxWaitMs = MAX_WAIT_MS, whenIdle = browserIdle } = options;
  let done = false;
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let cancelIdle: (() => void) | undefined;
  const finish = () => {
    if (done) return;
    done = true;
    stop();
    settled();
  };
  // A job starting while quiet (or waiting for idle) starts the quiet spell over.
  const check = () => {
    if (done) return;
    if (source.busy()) {
      clearTimeout(quiet);
      quiet = undefined;
      cancelIdle?.();
      cancelIdle = undefined;
      return;
    }
    if (quiet !== undefined || cancelIdle !== undefined) return;
    quiet = setTimeout(() => {
      quiet = undefined;
      cancelIdle = whenIdle(finish);
    }, quietMs);
  };
  const unsubscribe = source.subscribe(check);
  const deadline = setTimeout(finish, maxWaitMs);
  function stop(): void {
    unsubscribe();
    clearTimeout(deadline);
    clearTimeout(quiet);
    cancelIdle?.();
  }
  check();
  return () => {
    done = true;
    stop();
  };
}

/** The browser's idle callback (at most IDLE_TIMEOUT_MS away), or a timer where there is none. */
function browserIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(run, 0);
  return () => clearTimeout(timer);
}
