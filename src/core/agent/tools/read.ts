/**
 * The `read` tool: a text file's lines with line numbers, from `offset` (1-based) for `limit`
 * lines, cut at the seed's 500 lines (§A3) and the character cap; binary files are named, not
 * dumped; re-reading a file changed since the last read adds L9's note.
 */
import type { AgentTool } from '../types.ts';
import { defineTool, success, ToolInput, type ToolEnv } from './common.ts';
import { count } from './limits.ts';
import { readText } from './read-text.ts';
import { resolveToolPath } from './paths.ts';

export function readTool(env: ToolEnv): AgentTool {
  const max = env.limits.readMaxLines;
  return defineTool(
    {
      name: 'read',
      description:
        `Read a text file of the folder, with line numbers. Returns at most ${count(max)} lines per call: use offset ` +
        '(first line, 1-based) and limit (number of lines) to read a long file in parts. Binary files are described, not shown. ' +
        'Paths are relative to the folder root; the folder is read-only.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path relative to the folder root, e.g. "src/main.ts".' },
          offset: { type: 'integer', minimum: 1, description: 'First line to return, 1-based. Default 1.' },
          limit: { type: 'integer', minimum: 1, maximum: max, description: `Number of lines to return. Default and maximum ${max}.` },
        },
        required: ['path'],
        additionalProperties: false,
      },
    },
    async (input, { signal }) => {
      const args = new ToolInput('read', input);
      const target = await resolveToolPath(env, args.string('path', true));
      const result = await readText(env, target, { offset: args.integer('offset', 1), limit: args.integer('limit', 1) }, signal);
      return success(result.text, target.path);
    },
  );
}
