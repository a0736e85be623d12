/**
 * Runs `run` in a task of its own once the browser has drawn the next frame (after its layout and
 * paint), so work split over several calls does not pay for the layout of what came before it.
 * A hidden tab draws no frames: after `fallbackMs` it runs anyway. Returns a cancel function.
 */
export function afterNextFrame(run: () => void, fallbackMs = 100): () => void {
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const go = () => {
    if (done) return;
    done = true;
    run();
  };
  const frame = requestAnimationFrame(() => {
    // rAF callbacks run before the frame's layout and paint; a task queued here runs after them.
    timer = setTimeout(go, 0);
  });
  const fallback = setTimeout(go, fallbackMs);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(fallback);
    if (timer !== undefined) clearTimeout(timer);
  };
}
