/**
 * Slash commands in a user message (`/init`, `/review 123`, a project's own `/fix-issue 42`): which
 * ones ask the agent for work, and in words what they ask. Claude Code records a command as
 * `<command-name>/init</command-name><command-args>…</command-args>` and sends the command's
 * prompt as a separate message; other agents record the typed `/init`. Commands that only steer
 * the harness (`/clear`, `/model`, `/compact`, ...) ask for nothing.
 */

export interface SlashCommand {
  /** The command with its slash (`/init`). */
  name: string;
  /** What was typed after it, trimmed ('' when nothing). */
  args: string;
}

/** Commands that only steer the harness (Claude Code, Codex, pi): they ask the agent for no work. */
const HARNESS_COMMANDS = new Set([
  'clear', 'compact', 'model', 'mode', 'resume', 'continue', 'exit', 'quit', 'help', 'cost', 'status', 'config', 'settings', 'login', 'logout',
  'theme', 'permissions', 'memory', 'vim', 'doctor', 'agents', 'mcp', 'hooks', 'add-dir', 'ide', 'terminal-setup', 'export', 'rewind', 'context',
  'usage', 'statusline', 'output-style', 'privacy-settings', 'release-notes', 'upgrade', 'bug', 'feedback', 'approvals', 'new', 'diff', 'mention',
  'session', 'branch', 'queue', 'thinking', 'reasoning', 'fast', 'plan', 'todos', 'tasks', 'bashes', 'install-github-app', 'migrate-installer',
]);

/** What the agents' built-in work commands ask, in words (their own prompt is not always recorded). */
const BUILT_IN_ASKS: Record<string, string> = {
  init: 'analyze the codebase and write an instructions file (CLAUDE.md / AGENTS.md) describing it for future sessions',
  review: 'review the code changes (a pull request or the working tree) and report problems',
  'security-review': 'review the pending changes for security problems',
  'pr-comments': 'read the comments of the pull request',
};

function element(text: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return match?.[1]?.trim();
}

/** The slash command a user message is, or undefined when it is not one. */
export function readSlashCommand(text: string): SlashCommand | undefined {
  const tagged = element(text, 'command-name');
  if (tagged !== undefined) {
    const name = tagged.startsWith('/') ? tagged : `/${tagged}`;
    return /^\/[\w:.-]+$/.test(name) ? { name, args: element(text, 'command-args') ?? '' } : undefined;
  }
  const typed = /^(\/[\w:.-]+)(?:[ \t]+([^\n]*))?$/.exec(text.trim());
  // A path (`/var/folders/…`) is not a command.
  if (!typed || typed[1]!.slice(1).includes('/')) return undefined;
  return { name: typed[1]!, args: (typed[2] ?? '').trim() };
}

/** Whether a command asks the agent for work: a built-in work command, or any other command typed with arguments. */
export function asksForWork(command: SlashCommand, hasPrompt = false): boolean {
  const bare = command.name.slice(1).toLowerCase();
  if (HARNESS_COMMANDS.has(bare)) return false;
  return bare in BUILT_IN_ASKS || command.args.length > 0 || hasPrompt;
}

/** What a built-in work command asks, in words, or undefined for a command we do not know. */
export function builtInAsk(command: SlashCommand): string | undefined {
  return BUILT_IN_ASKS[command.name.slice(1).toLowerCase()];
}
