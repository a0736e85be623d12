/**
 * The live agent's todo list (L1): `todo_write` replaces the list, `todo_read` gives it back. The
 * list is kept in the session's journal (the branch's latest valid `todo_write` call), so each
 * branch has its own, a resumed session finds it again, and the todo recap at the end of the
 * context (assemble.ts) recaps what the model wrote. The panel shows the same list.
 */
import type { Entry } from '../journal/entry.ts';
import type { AgentToolSpec, ToolOutcome } from './types.ts';

export const TODO_WRITE = 'todo_write';
export const TODO_READ = 'todo_read';

export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export interface Todo {
  content: string;
  status: TodoStatus;
}

/** Items one list may hold. Default 50. */
export const MAX_TODOS = 50;
/** Characters of one item. Default 500. Unit: chars. */
export const MAX_TODO_CHARS = 500;

export const TODO_WRITE_SPEC: AgentToolSpec = {
  name: TODO_WRITE,
  // What the model reads about it: prompts/tool-todo-write.md (describeTool).
  description: '',
  parameters: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        maxItems: MAX_TODOS,
        items: {
          type: 'object',
          properties: {
            content: { type: 'string' },
            status: { type: 'string', enum: [...TODO_STATUSES] },
          },
          required: ['content', 'status'],
        },
      },
    },
    required: ['todos'],
  },
};

export const TODO_READ_SPEC: AgentToolSpec = {
  name: TODO_READ,
  // What the model reads about it: prompts/tool-todo-read.md (describeTool).
  description: '',
  parameters: { type: 'object', properties: {} },
};

/** The list `input` gives, or why it is not one (the model gets the sentence as the tool's error). */
export function parseTodos(input: unknown): Todo[] | string {
  const todos = typeof input === 'object' && input !== null ? (input as { todos?: unknown }).todos : undefined;
  if (!Array.isArray(todos)) return 'todo_write needs "todos": an array of {"content", "status"}.';
  if (todos.length > MAX_TODOS) return `todo_write takes at most ${MAX_TODOS} items; got ${todos.length}.`;
  const out: Todo[] = [];
  for (const [i, item] of todos.entries()) {
    const content = typeof item === 'object' && item !== null ? (item as { content?: unknown }).content : undefined;
    const status = typeof item === 'object' && item !== null ? (item as { status?: unknown }).status : undefined;
    if (typeof content !== 'string' || content.trim() === '') return `todos[${i}]: "content" must be a non-empty string.`;
    if (content.length > MAX_TODO_CHARS) return `todos[${i}]: "content" is ${content.length} characters; at most ${MAX_TODO_CHARS}.`;
    if (!TODO_STATUSES.includes(status as TodoStatus)) return `todos[${i}]: "status" must be one of ${TODO_STATUSES.join(', ')}; got ${JSON.stringify(status) ?? 'nothing'}.`;
    out.push({ content: content.trim(), status: status as TodoStatus });
  }
  return out;
}

/** The list as the model and the panel read it: one numbered line per item with its status. */
export function formatTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return 'The todo list is empty.';
  return todos.map((todo, i) => `${i + 1}. [${todo.status}] ${todo.content}`).join('\n');
}

/** The branch's current list: its latest valid `todo_write` call; undefined when it wrote none. */
export function currentTodos(messages: readonly Entry[]): Todo[] | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const blocks = messages[i]!.blocks;
    for (let b = blocks.length - 1; b >= 0; b--) {
      const block = blocks[b]!;
      if (block.type !== 'tool_call' || block.name !== TODO_WRITE) continue;
      const todos = parseTodos(block.input);
      if (typeof todos !== 'string') return todos;
    }
  }
  return undefined;
}

export function todoWrite(input: unknown): ToolOutcome {
  const todos = parseTodos(input);
  if (typeof todos === 'string') return { ok: false, text: '', error: todos };
  const count = (status: TodoStatus) => todos.filter((todo) => todo.status === status).length;
  return { ok: true, text: `Todo list saved: ${todos.length} items (${count('in_progress')} in progress, ${count('pending')} pending, ${count('completed')} completed).` };
}

/** `todo_read` over the branch's messages (the calls of the running reply included). */
export function todoRead(messages: readonly Entry[]): ToolOutcome {
  const todos = currentTodos(messages);
  return { ok: true, text: todos === undefined ? 'No todo list yet on this branch: write one with todo_write.' : formatTodos(todos) };
}
