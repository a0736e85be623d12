/**
 * Prompt templates: every prompt is a file in prompts/ with named placeholders, rendered here by
 * plain string substitution (no eval, so it is safe under a strict CSP). The library of files is
 * injected: the app bundles them, the CLI and tests read them from disk.
 */

/** Prompt id (file name without `.md`) -> template text. */
export type PromptLibrary = Readonly<Record<string, string>>;

export class TemplateError extends Error {
  override name = 'TemplateError';
}

/**
 * Replaces `{{name}}` placeholders (or `{name}` with `single: true`, the Augment templates' form).
 * A placeholder without a value is an error naming it; `{{{{`/`}}}}` are never produced by input.
 */
export function renderTemplate(template: string, vars: Readonly<Record<string, string>>, options: { single?: boolean } = {}): string {
  const pattern = options.single ? /\{([a-z_][a-z0-9_]*)\}/gi : /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/gi;
  return template.replace(pattern, (_match, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new TemplateError(`The template needs "${name}" but no value was given for it.`);
    return value;
  });
}

/** The placeholder names a template uses. */
export function placeholders(template: string, options: { single?: boolean } = {}): string[] {
  const pattern = options.single ? /\{([a-z_][a-z0-9_]*)\}/gi : /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/gi;
  return [...new Set([...template.matchAll(pattern)].map((m) => m[1] ?? ''))];
}

export function getPrompt(library: PromptLibrary, id: string): string {
  const text = library[id];
  if (text === undefined) throw new TemplateError(`No prompt file prompts/${id}.md.`);
  return text;
}
