/**
 * A handed-back block as lines of the CLI's text and Markdown output: the file, the block (fenced
 * in Markdown, with the format's language), where it goes, the basis sentence, the limitation and
 * the alternative form. The page shows the same fields (ui/sweep/AgentConfigPanel.tsx).
 */
import type { AgentConfig, AgentConfigBlock } from './types.ts';

/** The Markdown fence language of a format (`env` blocks are shell lines). */
export function fenceLanguage(format: AgentConfigBlock['format']): string {
  return format === 'env' ? 'sh' : format;
}

function blockLines(block: AgentConfigBlock, markdown: boolean): string[] {
  return markdown ? ['```' + fenceLanguage(block.format), block.text, '```'] : [block.text];
}

/** "Use in <agent>: <file>", the block, its placement, the basis, the limitation, then the alternative form. */
export function agentConfigLines(config: AgentConfig, markdown: boolean): string[] {
  const lines = [`Use in ${config.agent}: ${config.file}`, ...blockLines(config, markdown), config.placement, config.basis];
  if (config.limitation) lines.push(`Limitation: ${config.limitation}`);
  if (config.alternative) lines.push(`Or in ${config.alternative.file}:`, ...blockLines(config.alternative, markdown), config.alternative.placement);
  return lines;
}
