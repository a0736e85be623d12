/** The time a sweep has left, from the replays finished so far (the CLI's progress line and the page's). */
/** Milliseconds left at the pace so far, or undefined before anything finished. */
export function etaMs(done: number, total: number, elapsedMs: number): number | undefined {
  if (done <= 0) return undefined;
  return Math.max(0, Math.round((elapsedMs / done) * (total - done)));
}
