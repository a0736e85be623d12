/**
 * The fixed instruction every remote summary request carries, and (re-exported from
 * provider-presets.ts) where the common providers listen.
 */
import summarizerSystemText from '../../../prompts/summarizer-system.md?raw';

export { PROVIDER_PRESETS, presetFor, trimSlashes, type ProviderPreset } from './provider-presets.ts';
export { SUMMARIZER_SYSTEM_PROMPT_ID } from './remote-summarizer.ts';

/** The system message of every remote summary request: the task itself is in the user message (prompts/<id>.md). */
export const SUMMARIZER_SYSTEM_PROMPT = summarizerSystemText.trim();
