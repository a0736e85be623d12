/**
 * pi-style compaction (seed 001): at the end of a run, when the context nears the window, the
 * oldest entries since the last compaction are summarized into a structured checkpoint and the
 * newest keepRecentTokens are kept verbatim; later compactions update that summary.
 */
import type { Strategy } from '../compaction/strategy.ts';
import { assemblePi } from './pi/assemble.ts';
import { PI_OPTIONS, parsePiOptions, type PiOptions } from './pi/options.ts';
import { planPi, triggerPi } from './pi/plan.ts';
import { PI_ESTIMATE, piEstimateInput } from './pi/estimate.ts';
import type { CompactionInput } from '../compaction/types.ts';

export { compactionEntry, type PiCompactionEntry } from './pi/compaction-entry.ts';
export { findCutPoint } from './pi/cut-point.ts';
export { isContextOverflow, shouldCompact } from './pi/decision.ts';
export { piHooks } from './pi/hooks.ts';
export type { PiOptions } from './pi/options.ts';

export const piStrategy: Strategy<PiOptions> = {
  id: 'pi',
  label: 'pi compaction',
  seed: '001_07d36aec627cb6a4.txt',
  description: 'Summarize everything but the newest keepRecentTokens into a structured checkpoint; update it on later runs.',
  options: PI_OPTIONS,
  parse: parsePiOptions,
  // With tokenCount 'pi-estimate' every figure (trigger, cut, before and after) is pi's own estimate.
  trigger: (input, options) => triggerPi(counted(input, options), options),
  plan: (input, options) => planPi(counted(input, options), options),
  assemble: (input, plan, summaries, options) => assemblePi(counted(input, options), plan, summaries, options),
};

/** The input as the options count it: the chosen counter's, or pi's own estimate. */
function counted(input: CompactionInput, options: PiOptions): CompactionInput {
  return options.tokenCount === PI_ESTIMATE ? piEstimateInput(input) : input;
}
