/**
 * The `ls` tool: one directory's entries, directories first then files, each by name, at most the
 * seed's first 10 per call (§A3 "directory + counts + first N") with `offset` to page on; sizes
 * for the files shown, `.gitignore`d entries hidden when it is honoured.
 */
import type { AgentTool, FolderEntry } from '../types.ts';
import { defineTool, success, throwIfStopped, ToolInput, type ToolEnv } from './common.ts';
import { lastMatch } from './gitignore.ts';
import { count, plural } from './limits.ts';
import { FolderPathError, joinPath, resolveToolPath, shownPath } from './paths.ts';
import { byName } from './walk.ts';

function kindOrder(kind: FolderEntry['kind']): number {
  return kind === 'directory' ? 0 : kind === 'file' ? 1 : 2;
}

export function lsTool(env: ToolEnv): AgentTool {
  const max = env.limits.listMaxItems;
  return defineTool(
    {
      name: 'ls',
      // What the model reads about it: prompts/tool-ls.md (describeTool).
      description: '',
      promptVars: { max: String(max) },
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          offset: { type: 'integer', minimum: 0 },
        },
        additionalProperties: false,
      },
    },
    async (input, { signal }) => {
      const args = new ToolInput('ls', input);
      const target = await resolveToolPath(env, args.string('path') ?? '');
      const offset = args.integer('offset', 0) ?? 0;
      const shown = shownPath(target.path);
      if (target.stat.kind !== 'directory') throw new FolderPathError(target.path, `"${shown}" is a file, not a directory; use read or stat.`);
      const rules = env.ignore ? await env.ignore.rulesFor(target.real) : [];
      let ignored = 0;
      const entries: FolderEntry[] = [];
      for (const entry of await env.folder.list(target.real)) {
        const rule = rules.length > 0 ? lastMatch(rules, joinPath(target.real, entry.name), entry.kind === 'directory') : undefined;
        if (rule && !rule.negate) ignored++;
        else entries.push(entry);
      }
      entries.sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || byName(a.name, b.name));
      const dirs = entries.filter((e) => e.kind === 'directory').length;
      const links = entries.filter((e) => e.kind === 'symlink').length;
      const files = entries.length - dirs - links;
      const tally = [plural(dirs, 'directory', 'directories'), plural(files, 'file')];
      if (links > 0) tally.push(plural(links, 'symlink'));
      const lines = [`${shown}/: ${plural(entries.length, 'entry', 'entries')} (${tally.join(', ')})${ignored > 0 ? `, ${count(ignored)} hidden by .gitignore` : ''}`];
      const page = entries.slice(offset, offset + max);
      for (const entry of page) {
        throwIfStopped(signal);
        if (entry.kind === 'directory') lines.push(`${entry.name}/`);
        else if (entry.kind === 'symlink') lines.push(`${entry.name}@`);
        else {
          const stat = await env.folder.stat(joinPath(target.real, entry.name));
          lines.push(stat ? `${entry.name}  (${count(stat.size)} bytes)` : entry.name);
        }
      }
      if (entries.length === 0) lines.push('(empty)');
      else if (page.length === 0) lines.push(`(offset ${count(offset)} is past the last entry)`);
      const after = entries.length - offset - page.length;
      if (after > 0) lines.push(`[Cut: showing entries ${count(offset + 1)}-${count(offset + page.length)} of ${count(entries.length)}; call ls with offset ${offset + page.length} for the next ${count(Math.min(after, max))}.]`);
      return success(lines.join('\n'), target.path);
    },
  );
}
