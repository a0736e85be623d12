/**
 * When the open Fold view folds again for a journal that grew (a live session's new entries, a
 * compaction it recorded): growth is gathered for a short while and folded once, never while a
 * fold is still running in the worker (the growth during it is folded right after), so a session
 * adding entries every few hundred milliseconds neither starves the view nor queues up folds.
 */

/** Runs `fire` after `ms`; returns a function that cancels it. */
export type Timer = (fire: () => void, ms: number) => () => void;

/** Growth gathered before a fold by extraction, ms. */
export const REFOLD_DELAY_MS = 500;
/** Growth gathered before a fold whose summaries a model writes (each fold may ask it for the newest block), ms. */
export const REFOLD_MODEL_DELAY_MS = 5_000;

export interface RefoldGate {
  /** The journal has `size` entries now. */
  grew(size: number): void;
  /** A fold of the journal at `size` entries started in the worker. */
  started(size: number): void;
  /** That fold ended (result, error or cancel). */
  settled(): void;
  /** The view closed: nothing more fires. */
  dispose(): void;
}

const browserTimer: Timer = (fire, ms) => {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
};

/** `refold(size)` asks the view to fold the journal at `size` entries (it then calls `started`); `delayMs` is read at each growth. */
export function createRefoldGate(refold: (size: number) => void, delayMs: () => number = () => REFOLD_DELAY_MS, timer: Timer = browserTimer): RefoldGate {
  let latest: number | undefined;
  let folded: number | undefined;
  let running = false;
  let cancel: (() => void) | undefined;
  let disposed = false;

  const arm = () => {
    if (disposed || running || cancel || latest === undefined || latest === folded) return;
    // Not restarted by later growth: a journal growing steadily is still folded every `delayMs`.
    cancel = timer(() => {
      cancel = undefined;
      if (!disposed && !running && latest !== undefined && latest !== folded) refold(latest);
    }, delayMs());
  };

  return {
    grew(size) {
      latest = size;
      arm();
    },
    started(size) {
      running = true;
      folded = size;
      cancel?.();
      cancel = undefined;
    },
    settled() {
      running = false;
      arm();
    },
    dispose() {
      disposed = true;
      cancel?.();
      cancel = undefined;
    },
  };
}
