/** The prompt files of prompts/, bundled as text for the worker (Vite inlines them at build time). */
import type { PromptLibrary } from '../../core/compaction/prompts.ts';

const files = import.meta.glob('../../../prompts/*.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export const PROMPTS: PromptLibrary = Object.fromEntries(
  Object.entries(files).map(([path, text]) => [path.slice(path.lastIndexOf('/') + 1, -'.md'.length), text]),
);
