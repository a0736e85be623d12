// The live agent's todo list (L1): todo_write checks and keeps the list in the journal, todo_read
// gives back the branch's latest, each branch its own, and the recap at the end of the context
// recaps what the model really wrote.
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { fakeSession } from './testing.ts';
import { currentTodos, formatTodos, MAX_TODOS, parseTodos } from './todos.ts';

const prompts = loadPrompts();
const signal = () => new AbortController().signal;
const write = (todos: unknown) => ({ toolCalls: [{ name: 'todo_write', input: { todos } }] });
const PLAN = [{ content: 'find the TODOs', status: 'in_progress' }, { content: 'list them with their lines', status: 'pending' }];

describe('parseTodos', () => {
  it('reads a list and says what is wrong with one that is not', () => {
    expect(parseTodos({ todos: PLAN })).toEqual(PLAN);
    expect(parseTodos({})).toBe('todo_write needs "todos": an array of {"content", "status"}.');
    expect(parseTodos({ todos: [{ content: ' ', status: 'pending' }] })).toBe('todos[0]: "content" must be a non-empty string.');
    expect(parseTodos({ todos: [{ content: 'x', status: 'done' }] })).toBe('todos[0]: "status" must be one of pending, in_progress, completed; got "done".');
    expect(parseTodos({ todos: Array.from({ length: MAX_TODOS + 1 }, () => ({ content: 'x', status: 'pending' })) })).toBe(`todo_write takes at most ${MAX_TODOS} items; got ${MAX_TODOS + 1}.`);
  });

  it('formats one numbered line per item', () => {
    expect(formatTodos(parseTodos({ todos: PLAN }) as never)).toBe('1. [in_progress] find the TODOs\n2. [pending] list them with their lines');
    expect(formatTodos([])).toBe('The todo list is empty.');
  });
});

describe('todo_write and todo_read in the loop', () => {
  it('keeps the list, reads it back, and the recap ends the next request with it', async () => {
    const { session, model, of } = fakeSession([
      write(PLAN),
      { toolCalls: [{ name: 'todo_read' }] },
      { text: 'Working on it.' },
      write([{ content: 'bad', status: 'done' }]),
      { text: 'Still on it.' },
    ], { prompts });
    expect(await session.send('Find every TODO', signal())).toEqual({ status: 'done', calls: 3 });
    const outcomes = of('tool').map((t) => [t.call.name, t.outcome.ok, t.outcome.text]);
    expect(outcomes).toEqual([
      ['todo_write', true, 'Todo list saved: 2 items (1 in progress, 1 pending, 0 completed).'],
      ['todo_read', true, '1. [in_progress] find the TODOs\n2. [pending] list them with their lines'],
    ]);
    // L1: the request after the list was written ends with its recap; the first one had none.
    const recap = (i: number) => model.requests[i]!.context.find((item) => item.entry.sourceType === 'agent.todo-recap');
    expect(recap(0)).toBeUndefined();
    expect(JSON.stringify(recap(1)!.entry.blocks)).toContain('Todo recap: 2 todos: 1 in_progress, 1 pending; in progress: find the TODOs');
    expect(model.requests[1]!.context.at(-1)!.entry.sourceType).toBe('agent.todo-recap');
    expect(currentTodos(session.entries)).toEqual(PLAN);

    // A list the tool refused is an error result and leaves the current one as it was.
    await session.send('Go on', signal());
    expect(of('tool').at(-1)!.outcome).toMatchObject({ ok: false, error: 'todos[0]: "status" must be one of pending, in_progress, completed; got "done".' });
    expect(currentTodos(session.entries)).toEqual(PLAN);
  });

  it('gives each branch its own list', async () => {
    const { session, of } = fakeSession([
      write(PLAN),
      { text: 'Planned.' },
      { toolCalls: [{ name: 'todo_read' }] },
      { text: 'Nothing planned here.' },
    ], { prompts });
    await session.send('Plan it', signal());
    const first = session.entries.find((e) => e.role === 'user')!;
    await session.editAndResend(first.id, 'Something else', signal());
    expect(of('tool').at(-1)!.outcome.text).toBe('No todo list yet on this branch: write one with todo_write.');
  });
});
