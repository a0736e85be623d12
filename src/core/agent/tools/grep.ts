/**
 * The `grep` tool: lines of text files that match a regular expression (JavaScript syntax) or a
 * literal string, below a directory or in one file, optionally only files whose name matches a
 * glob. It reports how many matches in how many files and shows the seed's first 5 matching lines
 * (§A3, with file and line number) per call, `offset` to page on. Binary files are skipped; every
 * cost is capped (files, bytes per file, bytes in all, matches, walk) and the output says which
 * cap stopped it.
 */
import type { AgentTool } from '../types.ts';
import { BINARY_SNIFF_BYTES, clipLine, count, PATTERN_MAX_CHARS, plural } from './limits.ts';
import { sniffBinary } from './binary.ts';
import { defineTool, success, throwIfStopped, ToolInput, ToolInputError, type ToolEnv } from './common.ts';
import { globToRegExp } from './glob-pattern.ts';
import { baseName, resolveToolPath, shownPath } from './paths.ts';
import { walkNotes, walkTree, type WalkSummary } from './walk.ts';

/** Files read at the same time (the folder's latency, not its bandwidth, is what a search waits on). */
const READ_AHEAD = 8;

interface Match {
  path: string;
  line: number;
  text: string;
}

function compile(pattern: string, literal: boolean, ignoreCase: boolean): RegExp {
  const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : pattern;
  try {
    return new RegExp(source, ignoreCase ? 'i' : '');
  } catch (error) {
    throw new ToolInputError(`grep: "${pattern}" is not a valid regular expression (${(error as Error).message}); set literal to true to search for the text as written.`);
  }
}

export function grepTool(env: ToolEnv): AgentTool {
  const { limits } = env;
  const max = limits.grepMaxLines;
  return defineTool(
    {
      name: 'grep',
      // What the model reads about it: prompts/tool-grep.md (describeTool).
      description: '',
      promptVars: { max: String(max) },
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string' },
          path: { type: 'string' },
          glob: { type: 'string' },
          ignoreCase: { type: 'boolean' },
          literal: { type: 'boolean' },
          offset: { type: 'integer', minimum: 0 },
        },
        required: ['pattern'],
        additionalProperties: false,
      },
    },
    async (input, { signal }) => {
      const args = new ToolInput('grep', input);
      const pattern = args.string('pattern', true);
      if (pattern.length > PATTERN_MAX_CHARS) throw new ToolInputError(`grep: the pattern is longer than ${count(PATTERN_MAX_CHARS)} characters.`);
      const regex = compile(pattern, args.boolean('literal') ?? false, args.boolean('ignoreCase') ?? false);
      const filterText = args.string('glob')?.trim();
      const filter = filterText ? globToRegExp(filterText) : undefined;
      const offset = args.integer('offset', 0) ?? 0;
      const target = await resolveToolPath(env, args.string('path') ?? '');

      // The files first (walk order, capped), then read a few at a time: reading is the cost.
      const prefix = target.real === '' ? '' : `${target.real}/`;
      const files: { path: string; display: string }[] = [];
      let stop: string | undefined;
      let summary: WalkSummary | undefined;
      if (target.stat.kind === 'file') {
        files.push({ path: target.real, display: target.path });
      } else {
        const display = (path: string) => (target.real === target.path ? path : `${target.path}/${path.slice(prefix.length)}`);
        summary = await walkTree(env, target.real, signal, (entry) => {
          if (entry.kind !== 'file') return;
          const relative = entry.path.slice(prefix.length);
          if (filter && !filter.test(filterText!.includes('/') ? relative : baseName(relative))) return;
          if (files.length >= limits.grepMaxFiles) {
            stop = `stopped after searching ${plural(limits.grepMaxFiles, 'file')} (the cap); narrow the path or glob`;
            return 'stop';
          }
          files.push({ path: entry.path, display: display(entry.path) });
        });
      }

      const matches: Match[] = [];
      const filesWithMatches = new Set<string>();
      let searched = 0;
      let bytes = 0;
      let binary = 0;
      let partial = 0;
      /** Searches one file's bytes (read with `budget + 1` asked); true when the match cap is reached. */
      const search = (file: { path: string; display: string }, data: Uint8Array, budget: number): boolean => {
        searched++;
        if (sniffBinary(data.subarray(0, BINARY_SNIFF_BYTES), file.path, data.length <= BINARY_SNIFF_BYTES).binary) {
          binary++;
          return false;
        }
        const cut = data.length > budget;
        if (cut && budget === limits.grepFileMaxBytes) partial++;
        const body = cut ? data.subarray(0, budget) : data;
        bytes += body.length;
        const lines = new TextDecoder('utf-8').decode(body).split('\n');
        if (cut && lines.length > 1) lines.pop(); // the last line may be cut in the middle
        for (let i = 0; i < lines.length; i++) {
          const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
          if (!regex.test(line)) continue;
          matches.push({ path: file.display, line: i + 1, text: line });
          filesWithMatches.add(file.display);
          if (matches.length >= limits.grepMaxMatches) return true;
        }
        return false;
      };
      let next = 0;
      while (next < files.length) {
        throwIfStopped(signal);
        // Each file of a batch may use its whole budget, so a batch never reads past the byte cap.
        const batch: { file: { path: string; display: string }; budget: number }[] = [];
        let left = limits.grepMaxBytes - bytes;
        while (next < files.length && batch.length < READ_AHEAD && left > 0) {
          const budget = Math.min(limits.grepFileMaxBytes, left);
          left -= budget;
          batch.push({ file: files[next++]!, budget });
        }
        if (batch.length === 0) {
          stop = `stopped after searching ${count(limits.grepMaxBytes)} bytes (the cap); narrow the path or glob`;
          break;
        }
        const contents = await Promise.all(batch.map(({ file, budget }) => env.folder.read(file.path, { length: budget + 1 })));
        if (batch.some(({ file, budget }, i) => search(file, contents[i]!, budget))) {
          stop = `stopped counting at ${plural(limits.grepMaxMatches, 'match', 'matches')} (the cap); narrow the pattern or path`;
          break;
        }
      }

      const where = target.path === '' ? '' : ` in ${shownPath(target.path)}`;
      const lines = [`${plural(matches.length, 'match', 'matches')} in ${plural(filesWithMatches.size, 'file')} for "${pattern}"${where} (${plural(searched, 'file')} searched)`];
      const page = matches.slice(offset, offset + max);
      for (const match of page) lines.push(`${match.path}:${match.line}: ${clipLine(match.text, limits.grepLineMaxChars)}`);
      const after = matches.length - offset - page.length;
      if (after > 0) lines.push(`[Cut: showing matches ${count(offset + 1)}-${count(offset + page.length)} of ${count(matches.length)}; call grep with offset ${offset + page.length} for the next ${count(Math.min(after, max))}.]`);
      if (stop) lines.push(`[Cut: ${stop}.]`);
      if (partial > 0) lines.push(`[${plural(partial, 'file')} larger than ${count(limits.grepFileMaxBytes)} bytes: only the first ${count(limits.grepFileMaxBytes)} bytes of each were searched.]`);
      if (binary > 0) lines.push(`[${plural(binary, 'binary file')} skipped.]`);
      if (summary) lines.push(...walkNotes(summary));
      return success(lines.join('\n'), target.path);
    },
  );
}
