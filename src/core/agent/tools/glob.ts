/**
 * The `glob` tool: files whose path matches a pattern (`*`, `?`, `**`, `[...]`, `{a,b}`), relative
 * to a directory (default the root), in path order; the pattern, the match count and the first 10
 * matches per call (§A3), `offset` to page on. The walk starts at the pattern's literal prefix and
 * stops at the walk cap, saying so.
 */
import type { AgentTool } from '../types.ts';
import { defineTool, success, ToolInput, ToolInputError, type ToolEnv } from './common.ts';
import { globToRegExp, splitLiteralPrefix } from './glob-pattern.ts';
import { count, PATTERN_MAX_CHARS, plural } from './limits.ts';
import { FolderPathError, joinPath, normalizeToolPath, resolveToolPath, shownPath } from './paths.ts';
import { walkNotes, walkTree } from './walk.ts';

export function globTool(env: ToolEnv): AgentTool {
  const max = env.limits.listMaxItems;
  return defineTool(
    {
      name: 'glob',
      // What the model reads about it: prompts/tool-glob.md (describeTool).
      description: '',
      promptVars: { max: String(max) },
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string' },
          path: { type: 'string' },
          offset: { type: 'integer', minimum: 0 },
        },
        required: ['pattern'],
        additionalProperties: false,
      },
    },
    async (input, { signal }) => {
      const args = new ToolInput('glob', input);
      const pattern = args.string('pattern', true).trim().replace(/\\(?=[/])/g, '/');
      if (pattern.length > PATTERN_MAX_CHARS) throw new ToolInputError(`glob: the pattern is longer than ${count(PATTERN_MAX_CHARS)} characters.`);
      const offset = args.integer('offset', 0) ?? 0;
      const target = await resolveToolPath(env, args.string('path') ?? '');
      if (target.stat.kind !== 'directory') throw new FolderPathError(target.path, `"${shownPath(target.path)}" is not a directory; glob searches below a directory.`);
      const { base, rest } = splitLiteralPrefix(pattern.replace(/^\.\//, ''));
      // The literal part must itself stay inside the folder (no "../x/*.ts").
      const start = base === '' ? target.real : normalizeToolPath(joinPath(target.real, base));
      if (start !== target.real && !start.startsWith(`${target.real === '' ? '' : `${target.real}/`}`)) {
        throw new FolderPathError(pattern, `Refused "${pattern}": the pattern leads outside ${shownPath(target.path)}.`);
      }
      let regex: RegExp;
      try {
        regex = globToRegExp(rest);
      } catch (error) {
        throw new ToolInputError(`glob: cannot read the pattern "${pattern}": ${(error as Error).message}.`);
      }
      // Without "**" a match is exactly as deep as the pattern: no need to go deeper.
      const depth = rest.split('/').includes('**') ? Infinity : rest.split('/').length;
      const startStat = await env.folder.stat(start);
      const hidden = env.ignore && start !== target.real ? await env.ignore.ignoredPath(start, true) : undefined;
      const matches: string[] = [];
      const prefix = start === '' ? '' : `${start}/`;
      const summary = startStat?.kind === 'directory' && !hidden
        ? await walkTree(env, start, signal, (entry) => {
            if (entry.kind === 'file' && regex.test(entry.path.slice(prefix.length))) matches.push(entry.path);
          }, { enter: (dir) => dir.slice(prefix.length).split('/').length < depth })
        : undefined;
      const shownBase = target.real === '' ? '' : `${target.real}/`;
      const display = (path: string) => (target.real !== target.path ? joinPath(target.path, path.slice(shownBase.length)) : path);
      const page = matches.slice(offset, offset + max);
      const where = target.path === '' ? '' : ` under ${target.path}`;
      const lines = [`${plural(matches.length, 'file')} ${matches.length === 1 ? 'matches' : 'match'} "${pattern}"${where}${summary?.stopped ? ' (in the part of the folder walked)' : ''}`];
      lines.push(...page.map(display));
      const after = matches.length - offset - page.length;
      if (after > 0) lines.push(`[Cut: showing matches ${count(offset + 1)}-${count(offset + page.length)} of ${count(matches.length)}; call glob with offset ${offset + page.length} for the next ${count(Math.min(after, max))}.]`);
      if (summary) lines.push(...walkNotes(summary));
      if (hidden) lines.push(`[${start} is hidden by ${hidden.source} line ${hidden.line} ("${hidden.text}").]`);
      return success(lines.join('\n'), target.path);
    },
  );
}
