/**
 * Codex CLI's own compaction (the local, in-band path of codex-rs): when the context reaches the
 * auto-compact limit, the whole history is summarized into a handoff note and replaced by the
 * initial context, the user's newest prompts (up to 20,000 tokens) and that note.
 */
import type { Strategy } from '../compaction/strategy.ts';
import { assembleCodex } from './codex/assemble.ts';
import { CODEX_OPTIONS, parseCodexOptions, type CodexOptions } from './codex/options.ts';
import { CODEX_ID, codexNothingToDo, planCodex, triggerCodex } from './codex/plan.ts';

export type { CodexOptions } from './codex/options.ts';
export { codexLimits } from './codex/options.ts';

export const codexStrategy: Strategy<CodexOptions> = {
  id: CODEX_ID,
  label: 'Codex CLI compaction',
  seed: 'openai/codex codex-rs',
  description: 'Codex CLI (codex-rs/core/src/compact.rs at 0100b103, limits from codex-rs/protocol/src/openai_models.rs at 8db07003): '
    + 'at model_auto_compact_token_limit (default 90% of model_context_window) the whole history becomes one handoff summary, '
    + 'sent as a user message after the initial context and the newest user prompts up to 20,000 tokens (bytes/4), the crossing one cut; '
    + 'no assistant message, tool call or result stays. The local path is modelled, not the remote /responses/compact one OpenAI models may use. '
    + 'The 20,000-token cap is fixed in Codex and exposed as userMessageTokenCap.',
  options: CODEX_OPTIONS,
  parse: parseCodexOptions,
  trigger: (input, options) => triggerCodex(input, options),
  plan: planCodex,
  nothingToDo: (input) => codexNothingToDo(input),
  assemble: assembleCodex,
};
