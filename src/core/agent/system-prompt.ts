/**
 * The live agent's system prompt (L1): the prompt file prompts/agent-system.md, filled with the
 * folder's name and whether it is a snapshot, so the model knows what it is looking at.
 */
import { getPrompt, renderTemplate, type PromptLibrary } from '../compaction/prompts.ts';
import type { Folder } from './types.ts';

export const AGENT_SYSTEM_PROMPT_ID = 'agent-system';

export function renderSystemPrompt(prompts: PromptLibrary, folder: Pick<Folder, 'name' | 'snapshot'>): string {
  const snapshot = folder.snapshot ? ' (a copy taken when the user picked it: later changes on disk are not seen)' : '';
  return renderTemplate(getPrompt(prompts, AGENT_SYSTEM_PROMPT_ID), { folder: folder.name.replace(/["\n\r]/g, ' '), snapshot }).trim();
}
