/**
 * The row ids of the specification's feature checklist (its FEATURES.md, 2026-11 edition: sections
 * A augment, P pi, L layered, F folding, B budget, D delivery, X cross-cutting), copied here so the
 * project's own checklist (`docs/features.md`) can be checked against them without reading files
 * outside the project. A new row in the specification is added here by hand.
 */
const RANGES = { A: 13, P: 10, L: 12, F: 14, B: 4, D: 8, X: 14 } as const;

/** Every row id, in the specification's order (A1 … X14). */
export const FEATURE_IDS: readonly string[] = Object.entries(RANGES).flatMap(([section, rows]) => (
  Array.from({ length: rows }, (_, i) => `${section}${i + 1}`)
));
