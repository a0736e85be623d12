/**
 * L9 (seed 002 §A8, §C4): file freshness as a light reminder. The read tool remembers the
 * modification time of each file it returned (in memory, per session, never stored); reading the
 * same file again after its time changed adds "Note: <file> was modified externally." There is no
 * global freshness check and nothing is refreshed on its own.
 */

/** The note the read tool adds, in the seed's words. */
export function modifiedNote(path: string): string {
  return `Note: ${path} was modified externally.`;
}

export interface MtimeTracker {
  /**
   * Records that `path` was read with modification time `mtimeMs` (epoch ms; 0 when the folder
   * cannot tell). True when the agent read it before and the time has changed since.
   */
  record(path: string, mtimeMs: number): boolean;
  /** The time last recorded for `path`, or undefined when it was never read. */
  lastRead(path: string): number | undefined;
}

/** A tracker over an in-memory map `{path: last mtime}`. An unknown time (0) never counts as a change. */
export function createMtimeTracker(): MtimeTracker {
  const seen = new Map<string, number>();
  return {
    record(path, mtimeMs) {
      const previous = seen.get(path);
      seen.set(path, mtimeMs);
      return previous !== undefined && previous !== 0 && mtimeMs !== 0 && previous !== mtimeMs;
    },
    lastRead: (path) => seen.get(path),
  };
}
