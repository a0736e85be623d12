/**
 * Options of an agent's modelled compaction that are facts of the agent, not settings a user can
 * change (a reserve, a token cap fixed in its source). A recommended point that moved one from the
 * agent's value cannot be handed back; this names each such option, its value and the agent's.
 */
import type { Options } from '../../compaction/strategy.ts';
import type { OptionSpec } from '../../compaction/options.ts';

/** Options describing the model or the replay, not the agent: never reported. */
const NOT_AGENT = new Set(['contextWindow', 'tokenCount', 'customInstructions']);

function show(value: unknown): string {
  return typeof value === 'number' ? value.toLocaleString('en-US') : JSON.stringify(value);
}

/** One sentence per option outside `settings` whose value differs from its default (the agent's own). */
export function notSettable(agent: string, options: Options, specs: readonly OptionSpec[], settings: readonly string[]): string[] {
  const out: string[] = [];
  for (const spec of specs) {
    if (settings.includes(spec.name) || NOT_AGENT.has(spec.name)) continue;
    const value = options[spec.name];
    if (value === undefined || value === spec.default) continue;
    out.push(`${spec.name} = ${show(value)} is not one of ${agent}'s settings (${agent} uses ${show(spec.default)}): the block cannot carry it, so ${agent} runs with ${show(spec.default)}.`);
  }
  return out;
}
