import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterNextFrame } from './after-next-frame.ts';

describe('afterNextFrame', () => {
  let frames: Array<() => void> = [];
  beforeEach(() => {
    vi.useFakeTimers();
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', (id: number) => {
      frames[id - 1] = () => undefined;
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('runs once, in a task after the frame, not in the frame callback', () => {
    const run = vi.fn();
    afterNextFrame(run);
    vi.advanceTimersByTime(10);
    expect(run).not.toHaveBeenCalled();
    frames.forEach((frame) => frame());
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(500);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs after the fallback when no frame comes (a hidden tab), and not again at a late frame', () => {
    const run = vi.fn();
    afterNextFrame(run, 100);
    vi.advanceTimersByTime(100);
    expect(run).toHaveBeenCalledTimes(1);
    frames.forEach((frame) => frame());
    vi.advanceTimersByTime(100);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('never runs once cancelled', () => {
    const run = vi.fn();
    const cancel = afterNextFrame(run);
    frames.forEach((frame) => frame());
    cancel();
    vi.advanceTimersByTime(1000);
    expect(run).not.toHaveBeenCalled();
  });
});
