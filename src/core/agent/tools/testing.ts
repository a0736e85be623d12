/**
 * Test helpers for the folder tools: run a tool of a set by name with a fresh signal.
 */
import type { AgentTool, ToolOutcome } from '../types.ts';

/** A function that runs the named tool of `tools` with `input`. */
export function toolRunner(tools: readonly AgentTool[], signal: AbortSignal = new AbortController().signal) {
  return (name: string, input: unknown): Promise<ToolOutcome> => {
    const tool = tools.find((t) => t.spec.name === name);
    if (!tool) throw new Error(`No tool named "${name}" (have: ${tools.map((t) => t.spec.name).join(', ')}).`);
    return tool.run(input, { signal });
  };
}
