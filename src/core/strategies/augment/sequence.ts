/**
 * Where a summary node sits in Augment's ordered history (seed 000 §5.1.1, A10): inserted between
 * two exchanges it takes the midpoint of their sequence ids rounded to 6 decimals, so no later
 * exchange is renumbered; appended, it takes the history's length.
 */

/** Midpoint of two sequence ids, rounded to 6 decimals. */
export function midpointSequenceId(previous: number, next: number): number {
  return Math.round(((previous + next) / 2) * 1e6) / 1e6;
}

/** The sequence id an exchange gets when inserted at `position` of a history with these ids. */
export function insertionSequenceId(sequenceIds: readonly number[], position: number): number {
  if (position < sequenceIds.length) {
    const previous = position > 0 ? sequenceIds[position - 1]! : 0;
    return midpointSequenceId(previous, sequenceIds[position]!);
  }
  return sequenceIds.length;
}

/** The history's sequence ids after inserting at `position` (a pure version of `addExchangeToHistory`). */
export function insertSequenceId(sequenceIds: readonly number[], position: number): number[] {
  const id = insertionSequenceId(sequenceIds, position);
  const out = sequenceIds.slice();
  out.splice(Math.min(position, out.length), 0, id);
  return out;
}
