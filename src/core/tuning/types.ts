/**
 * What "Use in my agent" hands back: the exact lines that set a recommended sweep point in the
 * agent's own configuration (pi's settings.json, Codex's config.toml, Claude Code's environment,
 * opencode.json), where they go, and the sessions and numbers the point was chosen on.
 */

/** The agents whose own compaction Foldlab models and can hand a setting back to. */
export type AgentId = 'pi' | 'codex' | 'claude-code' | 'opencode';

/** One block of lines to paste. */
export interface AgentConfigBlock {
  /** The file the lines go into (a path, or the shell's startup file for environment variables). */
  file: string;
  /** The exact lines. JSON never carries comments; TOML and shell lines start with `#` comment lines. */
  text: string;
  /** `json`: parses with JSON.parse; `toml`: TOML; `env`: `# comments` and `export NAME=value` lines. */
  format: 'json' | 'toml' | 'env';
  /** Where the lines go in that file and what happens to the keys left out. */
  placement: string;
}

/** The recommended point as the agent's own configuration. */
export interface AgentConfig extends AgentConfigBlock {
  agent: AgentId;
  /** One sentence: the sessions the point was chosen on and its numbers (shown beside the block). */
  basis: string;
  /** What the agent cannot be set to do for this point, and what the user gets instead. */
  limitation?: string;
  /** The same settings in another form (Claude Code: the settings.json `env` block). */
  alternative?: AgentConfigBlock;
}

/** The sessions a sweep ran on and the numbers its recommended point was chosen on. */
export interface AgentConfigBasis {
  /** The sessions' names, in the sweep's order. */
  sessions: readonly string[];
  /** Tokens per task as a ratio to the uncompacted sessions' (0.42: 42% of them). */
  ratioToUncompacted: number;
  /** The retention score, 0..1. */
  retention: number;
  /** Calls sent over the window, summed over the sessions. */
  overflowCalls: number;
  /** The window the sessions were replayed at, tokens, when the sweep chose one (else each session's own). */
  window?: number;
}
