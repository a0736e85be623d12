/** The real example sessions shipped under public/samples (MIT, see public/samples/NOTICE.md). */
import type { FormatId } from '../../core/import/types.ts';

export interface Sample {
  id: string;
  title: string;
  /** Path relative to the site's base URL. */
  path: string;
  format: FormatId;
  description: string;
}

export const SAMPLES: Sample[] = [
  { id: 'claude-code', title: 'Claude Code session', path: 'samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', format: 'claude-code', description: 'Real session, CLI 1.0.51: 101 tool calls' },
  { id: 'claude-rewind', title: 'Claude Code rewind + compact', path: 'samples/claude-code/dag_compact_after_rewind.jsonl', format: 'claude-code', description: 'A rewind fork and a compaction boundary' },
  { id: 'codex', title: 'Codex CLI rollout', path: 'samples/codex/schema-coverage.jsonl', format: 'codex', description: 'Codex 0.146: ~50 entry kinds, 6 compactions' },
  { id: 'pi-large', title: 'pi session (v1)', path: 'samples/pi/large-session.jsonl', format: 'pi', description: 'Real pi session: 391 tool calls, mixed providers' },
  { id: 'pi-compacted', title: 'pi session with compactions (v1)', path: 'samples/pi/before-compaction.jsonl', format: 'pi', description: 'Real pi session: 471 calls, 2 compactions pi recorded' },
  { id: 'pi-v3', title: 'pi session (v3 tree)', path: 'samples/pi/v3-small.jsonl', format: 'pi', description: 'id/parentId tree with 2 compactions' },
  { id: 'tau-bench', title: 'tau-bench GPT-4o airline', path: 'samples/openai-chat/gpt-4o-airline.json', format: 'openai-chat', description: '200 conversations, 1,164 tool calls' },
  { id: 'openhands', title: 'OpenHands GUI session', path: 'samples/openhands/basic_gui_mode.json', format: 'openhands', description: 'Real trajectory: 4 tool calls, agent state events' },
  { id: 'copilot-cli', title: 'GitHub Copilot CLI session', path: 'samples/copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e/events.jsonl', format: 'copilot-cli', description: 'Real session, Copilot CLI 1.0.78: 2 failed calls, reasoning' },
  { id: 'droid-exec', title: 'Factory Droid exec run (stream-json)', path: 'samples/droid/exec-rc-claude.jsonl', format: 'droid', description: 'Real run, Claude Sonnet 4.5: 20 tool calls' },
  { id: 'kimi', title: 'Kimi CLI session (wire.jsonl)', path: 'samples/kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35/wire.jsonl', format: 'kimi', description: 'Steps with token usage, a subagent thread' },
  { id: 'kimi-code', title: 'Kimi Code session (main agent wire.jsonl)', path: 'samples/kimi-code/session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b/agents/main/wire.jsonl', format: 'kimi-code', description: '14 steps with usage, a compaction, an undone turn' },
  { id: 'gemini-cli', title: 'Gemini CLI chat (JSONL)', path: 'samples/gemini-cli/jsonl_v040.jsonl', format: 'gemini-cli', description: 'Gemini CLI 0.40: a shell call, tokens per response' },
];
