/**
 * The fixed instruction every remote summary request carries, and (re-exported from
 * provider-presets.ts) where the common providers listen.
 */
import summarizerSystemText from '../../prompts/summarizer-system.md?raw';

export { PROVIDER_PRESETS, presetFor, trimSlashes, type ProviderPreset } from './provider-presets.ts';

/** Prompt file id (prompts/summarizer-system.md) of the system message of every remote summary request. */
export const SUMMARIZER_SYSTEM_PROMPT_ID = 'summarizer-system';

/** The system message of every remote summary request: the task itself is in the user message (prompts/<id>.md). */
export const SUMMARIZER_SYSTEM_PROMPT = summarizerSystemText.trim();
