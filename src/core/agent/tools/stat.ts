/**
 * The `stat` tool: what is at a path (file or directory, size, modification time, text or binary,
 * where a symlink inside the folder leads), without returning contents.
 */
import type { AgentTool } from '../types.ts';
import { BINARY_SNIFF_BYTES, count } from './limits.ts';
import { sniffBinary } from './binary.ts';
import { defineTool, success, ToolInput, type ToolEnv } from './common.ts';
import { resolveToolPath, shownPath } from './paths.ts';

export function statTool(env: ToolEnv): AgentTool {
  return defineTool(
    {
      name: 'stat',
      // What the model reads about it: prompts/tool-stat.md (describeTool).
      description: '',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
        additionalProperties: false,
      },
    },
    async (input) => {
      const args = new ToolInput('stat', input);
      const target = await resolveToolPath(env, args.string('path') ?? '');
      const { stat } = target;
      const parts: string[] = [stat.kind];
      if (stat.kind === 'file') {
        parts.push(`${count(stat.size)} bytes`);
        const sample = await env.folder.read(target.real, { length: BINARY_SNIFF_BYTES });
        const sniff = sniffBinary(sample, target.real, sample.length < BINARY_SNIFF_BYTES || sample.length >= stat.size);
        parts.push(sniff.binary ? `binary (${sniff.type})` : 'text');
      } else {
        parts.push(`${count((await env.folder.list(target.real)).length)} entries`);
      }
      parts.push(stat.mtimeMs > 0 ? `modified ${new Date(stat.mtimeMs).toISOString()}` : 'modification time unknown');
      const link = target.real !== target.path ? ` (symlink to ${shownPath(target.real)})` : '';
      return success(`${shownPath(target.path)}${link}: ${parts.join(', ')}`, target.path);
    },
  );
}
