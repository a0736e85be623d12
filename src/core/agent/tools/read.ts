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
      // What the model reads about it: prompts/tool-read.md (describeTool).
      description: '',
      promptVars: { max: count(max) },
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          offset: { type: 'integer', minimum: 1 },
          limit: { type: 'integer', minimum: 1, maximum: max },
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
