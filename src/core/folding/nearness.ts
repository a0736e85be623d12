/**
 * Distance from state (F2) for a folding session: which folded iterations come back nearer when a
 * file is touched again. Every iteration folded to L2 or beyond is listed under each file it
 * touched, so a touch finds the latest of them without scanning the history. The session lowers
 * them and marks them `near`: folding a newer iteration does not drag a marked one along (it folds
 * again by its own distance, or when the zone budgets need the room).
 */

/** Nearest level a touch brings an iteration back to: L1, short-term memory (L0 stays the working memory of the last iterations). */
export const TOUCH_NEAREST = 1;
/** Nearest level a recall brings a block's iterations back to: L2, since its full content sits in the retrieved zone meanwhile. */
export const RECALL_NEAREST = 2;

export class Nearness {
  /** File -> iterations that touched it and reached L2 or beyond, in iteration order (stale entries are dropped when met). */
  private readonly farByFile = new Map<string, number[]>();
  /** Iterations brought nearer and not folded again since. */
  readonly near = new Set<number>();

  /** Iteration i went from level `previous` to `level`; `files` are the files it touched. */
  moved(i: number, previous: number, level: number, files: readonly string[]): void {
    if (level > previous) this.near.delete(i);
    if (previous >= 2 || level < 2) return;
    for (const file of files) {
      const list = this.farByFile.get(file);
      if (!list) {
        this.farByFile.set(file, [i]);
        continue;
      }
      // Kept in iteration order (nearly always an append: iterations fold in order).
      let at = list.length;
      while (at > 0 && list[at - 1]! > i) at--;
      if (list[at - 1] !== i) list.splice(at, 0, i);
    }
  }

  /**
   * The iterations before `now` that touched one of `files` and are folded to L2 or beyond: for
   * each file the latest `perFile` of them, latest first, each once.
   */
  folded(files: readonly string[], perFile: number, levels: ArrayLike<number>, now: number): number[] {
    const out = new Set<number>();
    for (const file of files) {
      const list = this.farByFile.get(file);
      if (!list) continue;
      let taken = 0;
      for (let k = list.length - 1; k >= 0 && taken < perFile; k--) {
        const i = list[k]!;
        if ((levels[i] ?? 0) < 2) {
          list.splice(k, 1);
          continue;
        }
        if (i >= now || out.has(i)) continue;
        out.add(i);
        taken++;
      }
    }
    return [...out];
  }
}
