/**
 * The small Handlebars subset Augment's abridged-exchange template uses (seed 000 §5.3): raw values
 * `{{{name}}}`, `{{#if}}` / `{{else if}}` / `{{else}}` / `{{/if}}`, `{{#each list}}…{{{this}}}…{{/each}}`,
 * with Handlebars' rule that a block tag alone on its line removes that line. No eval, no HTML
 * escaping (the template only uses triple braces), so it is safe under a strict CSP.
 */

export type TemplateValue = string | boolean | readonly string[];
export type TemplateData = Readonly<Record<string, TemplateValue>>;

export class HandlebarsError extends Error {
  override name = 'HandlebarsError';
}

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'var'; name: string }
  | { kind: 'if'; branches: Array<{ test?: string; body: Node[] }> }
  | { kind: 'each'; name: string; body: Node[] };

const BLOCK_TAG = /\{\{(?:#if|#each|\/if|\/each|else)\b[^}]*\}\}/;
/** A block tag alone on its line (indentation allowed): the line, newline included, disappears. */
const STANDALONE = new RegExp(`^[ \\t]*(${BLOCK_TAG.source})[ \\t]*\\r?\\n`, 'gm');
const TAG = /\{\{\{\s*([a-zA-Z_][\w]*)\s*\}\}\}|\{\{\s*(#if|#each|\/if|\/each|else if|else)\s*([a-zA-Z_][\w]*)?\s*\}\}/g;

function parse(template: string): Node[] {
  const source = template.replace(STANDALONE, '$1');
  const root: Node[] = [];
  // Open blocks: the node list text goes to, and the block that owns it.
  const stack: Array<{ body: Node[]; block?: Extract<Node, { kind: 'if' | 'each' }> }> = [{ body: root }];
  const top = () => stack[stack.length - 1]!;
  let last = 0;
  for (const match of source.matchAll(TAG)) {
    const at = match.index;
    if (at > last) top().body.push({ kind: 'text', text: source.slice(last, at) });
    last = at + match[0].length;
    const [, rawName, keyword, arg] = match;
    if (rawName !== undefined) {
      top().body.push({ kind: 'var', name: rawName });
      continue;
    }
    const frame = top();
    switch (keyword) {
      case '#if': {
        const body: Node[] = [];
        const node: Node = { kind: 'if', branches: [{ test: need(arg, '#if'), body }] };
        frame.body.push(node);
        stack.push({ body, block: node });
        break;
      }
      case '#each': {
        const node: Node = { kind: 'each', name: need(arg, '#each'), body: [] };
        frame.body.push(node);
        stack.push({ body: node.body, block: node });
        break;
      }
      case 'else if':
      case 'else': {
        if (frame.block?.kind !== 'if') throw new HandlebarsError(`{{${keyword}}} outside an {{#if}} block.`);
        const body: Node[] = [];
        frame.block.branches.push(keyword === 'else' ? { body } : { test: need(arg, 'else if'), body });
        frame.body = body;
        break;
      }
      case '/if':
      case '/each': {
        const want = keyword === '/if' ? 'if' : 'each';
        if (frame.block?.kind !== want) throw new HandlebarsError(`{{${keyword}}} does not close an open {{#${want}}} block.`);
        stack.pop();
        break;
      }
    }
  }
  if (last < source.length) top().body.push({ kind: 'text', text: source.slice(last) });
  if (stack.length > 1) throw new HandlebarsError(`An {{#${top().block?.kind ?? 'if'}}} block is never closed.`);
  return root;
}

function need(arg: string | undefined, tag: string): string {
  if (arg === undefined) throw new HandlebarsError(`{{${tag}}} needs a name.`);
  return arg;
}

/** Handlebars truthiness: empty strings, false and empty lists are false. */
function truthy(value: TemplateValue | undefined): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function render(nodes: readonly Node[], data: TemplateData, self: string | undefined, out: string[]): void {
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
        out.push(node.text);
        break;
      case 'var': {
        if (node.name === 'this') {
          if (self === undefined) throw new HandlebarsError('{{{this}}} outside an {{#each}} block.');
          out.push(self);
          break;
        }
        const value = data[node.name];
        if (value === undefined) throw new HandlebarsError(`The template needs "${node.name}" but no value was given for it.`);
        out.push(Array.isArray(value) ? value.join(',') : String(value));
        break;
      }
      case 'if': {
        const branch = node.branches.find((b) => b.test === undefined || truthy(data[b.test]));
        if (branch) render(branch.body, data, self, out);
        break;
      }
      case 'each': {
        const list = data[node.name];
        if (Array.isArray(list)) for (const item of list as readonly string[]) render(node.body, data, item, out);
        break;
      }
    }
  }
}

const cache = new Map<string, Node[]>();

/** Renders `template` with `data`; parsed templates are cached by their text. */
export function renderHandlebars(template: string, data: TemplateData): string {
  let nodes = cache.get(template);
  if (nodes === undefined) {
    nodes = parse(template);
    if (cache.size > 16) cache.clear();
    cache.set(template, nodes);
  }
  const out: string[] = [];
  render(nodes, data, undefined, out);
  return out.join('');
}
