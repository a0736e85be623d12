/**
 * pi's block: the `compaction` object of pi's settings.json (packages/coding-agent/docs/settings.md,
 * pi 0.58). pi reads ~/.pi/agent/settings.json and then .pi/settings.json of the project, merging
 * nested objects key by key, and a key left out keeps its default, so the block can be merged into
 * either file on its own.
 */
import { parsePiOptions } from '../../strategies/pi/options.ts';
import type { Options } from '../../compaction/strategy.ts';
import type { AgentConfig, AgentConfigBasis } from '../types.ts';
import { basisSentence } from '../basis.ts';

export const PI_SETTINGS_FILE = '~/.pi/agent/settings.json';

export function piConfig(options: Options, basis: AgentConfigBasis): AgentConfig {
  const pi = parsePiOptions(options);
  const compaction = { enabled: pi.enabled, reserveTokens: pi.reserveTokens, keepRecentTokens: pi.keepRecentTokens };
  const notes: string[] = [];
  if (pi.customInstructions.trim()) notes.push(`customInstructions is not a settings.json key: pi takes extra focus only on a manual "/compact <instructions>", so automatic compactions run without it.`);
  return {
    agent: 'pi',
    file: PI_SETTINGS_FILE,
    format: 'json',
    text: JSON.stringify({ compaction }, null, 2),
    placement: `Merge the "compaction" key into ${PI_SETTINGS_FILE} (every project) or .pi/settings.json (this project; its keys override the global file's one by one). Keys you leave out keep pi's defaults.`,
    basis: basisSentence(basis),
    ...(notes.length ? { limitation: notes.join(' ') } : {}),
  };
}
