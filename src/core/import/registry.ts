/** Which importer reads which format: one file per format, registered here. */
import { createClaudeCodeImporter } from './claude-code.ts';
import { createCodexImporter } from './codex.ts';
import { createPiImporter } from './pi.ts';
import { openAiChatImporter } from './openai-chat.ts';
import { anthropicImporter } from './anthropic.ts';
import { openHandsImporter } from './openhands.ts';
import { createGeminiCliImporter, geminiCliDocumentImporter } from './gemini-cli.ts';
import { opencodeImporter } from './opencode.ts';
import { clineImporter } from './cline.ts';
import { createCursorImporter } from './cursor.ts';
import { createCopilotCliImporter } from './copilot-cli.ts';
import { cursorComposerImporter } from './cursor-composer.ts';
import { createDroidImporter } from './droid.ts';
import { createKimiImporter } from './kimi.ts';
import { createKimiCodeImporter } from './kimi-code.ts';
import type { DocumentImporter, FormatId, LineImporter } from './types.ts';

/**
 * A JSONL format may also be written as one JSON document (Gemini CLI's older `session-*.json`, a
 * Cursor composer read from its chat store):
 * `document` reads that form when the file is one document.
 */
export type ImporterKind = { kind: 'jsonl'; create: () => LineImporter; document?: DocumentImporter } | { kind: 'json'; importer: DocumentImporter };

export const IMPORTERS: Record<FormatId, ImporterKind> = {
  'claude-code': { kind: 'jsonl', create: createClaudeCodeImporter },
  codex: { kind: 'jsonl', create: createCodexImporter },
  pi: { kind: 'jsonl', create: createPiImporter },
  'openai-chat': { kind: 'json', importer: openAiChatImporter },
  anthropic: { kind: 'json', importer: anthropicImporter },
  openhands: { kind: 'json', importer: openHandsImporter },
  'gemini-cli': { kind: 'jsonl', create: createGeminiCliImporter, document: geminiCliDocumentImporter },
  opencode: { kind: 'json', importer: opencodeImporter },
  cline: { kind: 'json', importer: clineImporter },
  cursor: { kind: 'jsonl', create: createCursorImporter, document: cursorComposerImporter },
  'copilot-cli': { kind: 'jsonl', create: createCopilotCliImporter },
  droid: { kind: 'jsonl', create: createDroidImporter },
  kimi: { kind: 'jsonl', create: createKimiImporter },
  'kimi-code': { kind: 'jsonl', create: createKimiCodeImporter },
};
