/**
 * Where a stored fold or fold summary came from: the model (or 'offline'), the method that made
 * it, the range it covers and a hash of its source, so a stored result can be told apart from one
 * made from other entries or by another model.
 */

export interface Provenance {
  /** The summarizer and model, e.g. `openai:https://api.openai.com/v1|gpt-4o-mini`, or `offline`. */
  model: string;
  /** What made it, e.g. `fold` or `fold-summary L3` (`+self-check` when checked). */
  method: string;
  /** Iterations covered, inclusive (0-based). */
  range: { from: number; to: number };
  /** FNV-1a 64 (hex) of the source the result was made from. */
  sourceHash: string;
}

export function provenance(model: string, method: string, range: { from: number; to: number }, sourceHash: string): Provenance {
  return { model, method, range: { from: range.from, to: range.to }, sourceHash };
}
