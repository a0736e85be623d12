/**
 * The live agent's tool descriptions come from prompts/tool-<name>.md, versioned with the other
 * prompt files: the code defines a tool's name and argument schema (its description left empty),
 * the file says what the model reads about it. A file is the tool's description, then one line
 * `- <argument>: <description>` per described argument; `{{placeholders}}` take the tool's own
 * figures (`promptVars`, e.g. a cap set in options).
 */
import { getPrompt, renderTemplate, TemplateError, type PromptLibrary } from '../compaction/prompts.ts';
import type { AgentToolSpec } from './types.ts';

/** Prompt file id of a tool: `tool-` and its name with `_` as `-` (query_history -> tool-query-history). */
export function toolPromptId(name: string): string {
  return `tool-${name.replace(/_/g, '-')}`;
}

const ARGUMENT_LINE = /^- ([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*): (.+)$/;

const described = new WeakMap<AgentToolSpec, { prompts: PromptLibrary; spec: AgentToolSpec }>();

type Schema = { properties?: Record<string, Schema>; items?: Schema; description?: string };

/** The schema of an argument by its dotted name (`todos.content`: a property of the items of `todos`), or undefined. */
function argumentSchema(parameters: Schema, name: string): Schema | undefined {
  let current: Schema | undefined = parameters;
  for (const part of name.split('.')) {
    const properties: Record<string, Schema> | undefined = current?.properties ?? current?.items?.properties;
    current = properties?.[part];
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * The spec with its description and its arguments' descriptions from its prompt file, for a spec
 * whose description is left empty in code (every built-in tool's). An argument line may name a
 * nested one (`- todos.content: ...`). Throws TemplateError naming the file when it describes an
 * argument the tool does not take.
 */
export function describeTool(spec: AgentToolSpec, prompts: PromptLibrary): AgentToolSpec {
  // A tool that brings its own description (one made outside Foldlab's set) is sent as it is.
  if (spec.description !== '') return spec;
  const known = described.get(spec);
  if (known?.prompts === prompts) return known.spec;
  const id = toolPromptId(spec.name);
  const text = renderTemplate(getPrompt(prompts, id), spec.promptVars ?? {});
  const head: string[] = [];
  const parameters = structuredClone(spec.parameters) as Schema;
  let inArguments = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const match = ARGUMENT_LINE.exec(line);
    if (match) {
      inArguments = true;
      const schema = argumentSchema(parameters, match[1]!);
      if (!schema) throw new TemplateError(`prompts/${id}.md describes an argument "${match[1]}" the ${spec.name} tool does not take (it takes: ${Object.keys(parameters.properties ?? {}).join(', ') || 'none'}).`);
      schema.description = match[2]!.trim();
    } else if (!inArguments) head.push(line);
    else if (line !== '') throw new TemplateError(`prompts/${id}.md: after the argument lines, only "- <argument>: <description>" lines may follow; got "${line}".`);
  }
  const { promptVars: _vars, ...rest } = spec;
  const result: AgentToolSpec = { ...rest, description: head.filter((part) => part !== '').join(' '), parameters: parameters as Record<string, unknown> };
  described.set(spec, { prompts, spec: result });
  return result;
}
