/**
 * The timer a strategy's trigger asks for between model calls (A1, seed 000 §1.1 and §1.5:
 * Augment's cache-expiry trigger, `setTimeout(…, cacheTTL - cacheAge - buffer)`): armed after
 * each call, cancelled by the next, and when it fires the session compacts between the calls
 * with the clock at the timer's moment. In Node it never keeps the process alive by itself.
 */

export class WakeTimer {
  private handle: ReturnType<typeof setTimeout> | undefined;
  /** Epoch ms the armed timer fires at, when one is armed. */
  at: number | undefined;

  /** Arms the timer for `wakeAt` (epoch ms, read on the clock `now`), replacing an armed one; `fire` gets the moment it was armed for. */
  arm(wakeAt: number, now: number, fire: (at: number) => void): void {
    this.cancel();
    this.at = wakeAt;
    this.handle = setTimeout(() => {
      this.handle = undefined;
      this.at = undefined;
      fire(wakeAt);
    }, Math.max(0, wakeAt - now));
    (this.handle as { unref?: () => void }).unref?.();
  }

  cancel(): void {
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
    this.at = undefined;
  }
}
