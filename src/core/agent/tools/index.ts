/**
 * The live agent's read-only tools over the folder the user picked: `ls`, `glob`, `grep`, `read`,
 * `stat`. None writes, deletes or runs anything; every path is confined to the folder; outputs
 * are cut by the seed's §A3 numbers and say what was cut. See docs/live-tools.md.
 */
import { createMtimeTracker, type MtimeTracker } from '../mtime.ts';
import type { AgentTool, Folder } from '../types.ts';
import type { ToolEnv } from './common.ts';
import { GitignoreMatcher } from './gitignore.ts';
import { globTool } from './glob.ts';
import { grepTool } from './grep.ts';
import { resolveLimits, type FolderToolLimits } from './limits.ts';
import { lsTool } from './ls.ts';
import { readTool } from './read.ts';
import { statTool } from './stat.ts';

export interface FolderToolOptions {
  /** Hide `.gitignore`d paths from listings and searches and refuse to read them (root and nested files). Default false. */
  gitignore?: boolean;
  /** The L9 tracker of read modification times; pass the same one to `@file` mentions. Default: a new tracker. */
  mtimes?: MtimeTracker;
  /** Overrides of the caps (see DEFAULT_FOLDER_TOOL_LIMITS for each default and unit). */
  limits?: Partial<FolderToolLimits>;
}

/** The environment the tools share; `@file` mentions build theirs the same way. */
export function createToolEnv(folder: Folder, options: FolderToolOptions = {}): ToolEnv {
  const env: ToolEnv = { folder, limits: resolveLimits(options.limits), mtimes: options.mtimes ?? createMtimeTracker() };
  if (options.gitignore) env.ignore = new GitignoreMatcher(folder);
  return env;
}

/** `ls`, `glob`, `grep`, `read`, `stat` over `folder`, in that order. */
export function createFolderTools(folder: Folder, options: FolderToolOptions = {}): AgentTool[] {
  const env = createToolEnv(folder, options);
  return [lsTool(env), globTool(env), grepTool(env), readTool(env), statTool(env)];
}

export { DEFAULT_FOLDER_TOOL_LIMITS, type FolderToolLimits } from './limits.ts';
export { FolderPathError, normalizeToolPath } from './paths.ts';
