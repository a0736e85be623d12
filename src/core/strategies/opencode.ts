/**
 * opencode's own compaction: when the context overflows its usable part (window - output cap -
 * compaction.reserved), everything but a recent tail of user turns is summarized; when a new turn
 * starts, old tool outputs beyond the protected newest ones are pruned (compaction.prune).
 */
import type { Strategy } from '../compaction/strategy.ts';
import { assembleOpencode } from './opencode/assemble.ts';
import { OPENCODE_OPTIONS, parseOpencodeOptions, type OpencodeOptions } from './opencode/options.ts';
import { OPENCODE_ID, opencodeNothingToDo, planOpencode, triggerOpencode } from './opencode/plan.ts';

export type { OpencodeOptions } from './opencode/options.ts';
export { opencodeLimits } from './opencode/options.ts';

export const opencodeStrategy: Strategy<OpencodeOptions> = {
  id: OPENCODE_ID,
  label: 'opencode compaction',
  seed: 'sst/opencode packages/opencode/src/session',
  description: 'opencode (sst/opencode packages/opencode/src/session/compaction.ts and overflow.ts at 31e22f65): '
    + 'compacts when the context reaches window - output cap (32,000) - compaction.reserved (default min(20,000, output cap)); '
    + 'the summary replaces everything but the last compaction.tail_turns (2) user turns within 25% of the usable window (2,000..15,000), kept verbatim; '
    + 'with compaction.prune, once a new turn starts, tool outputs older than the last two turns and the newest 40,000 tokens of output are cleared when that frees over 20,000 (chars/4). '
    + 'The output cap is the model\'s in opencode, not recorded in a session: an option.',
  options: OPENCODE_OPTIONS,
  parse: parseOpencodeOptions,
  trigger: (input, options) => triggerOpencode(input, options),
  plan: planOpencode,
  nothingToDo: (input) => opencodeNothingToDo(input),
  assemble: assembleOpencode,
};
