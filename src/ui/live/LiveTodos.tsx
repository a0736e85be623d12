/**
 * The agent's todo list on the shown branch (what its last `todo_write` holds, found by
 * store/view/live-session.ts), with each item's status: what the todo recap at the end of the
 * model's context recaps.
 */
import type { Todo, TodoStatus } from '../../core/agent/todos.ts';

const MARKS: Record<TodoStatus, string> = { pending: '○', in_progress: '◐', completed: '●' };

export function LiveTodos({ todos }: { todos: readonly Todo[] | undefined }) {
  if (!todos) return null;
  const done = todos.filter((todo) => todo.status === 'completed').length;
  return (
    <details className="live-todos small" open data-testid="live.todos">
      <summary>The agent's todo list: {done} of {todos.length} done</summary>
      <ol>
        {todos.map((todo, i) => (
          <li key={i} className={`todo-${todo.status}`} data-testid="live.todo" data-status={todo.status}>
            <span aria-hidden>{MARKS[todo.status]} </span>
            {todo.content} <span className="muted">({todo.status.replace('_', ' ')})</span>
          </li>
        ))}
      </ol>
    </details>
  );
}
