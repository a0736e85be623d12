/**
 * The live agent's todo list (L1): the model writes it with todo_write, the panel shows it as it
 * changes (the branch's latest list, with each item's status).
 */
import { expect, fixture, test } from './fixtures/app.ts';
import { LivePage } from './fixtures/live.ts';

test.describe.configure({ timeout: 120_000 });

test('the todo list the model writes is shown on the Live tab as it changes', async ({ app, page }) => {
  void app;
  const live = new LivePage(page);
  await live.openSetup();
  await live.snapshot();
  await live.configure({ script: fixture('todo-script.json') });
  await live.begin();
  await expect(page.getByTestId('live.todos')).toHaveCount(0);
  await live.send('Find every TODO');
  const todos = page.getByTestId('live.todos');
  await expect(todos).toContainText("The agent's todo list: 1 of 2 done");
  await expect(todos.getByTestId('live.todo')).toHaveText(['● grep the folder for TODO (completed)', '◐ list each TODO with its line (in progress)']);
  await expect(live.chat().getByTestId('live.tool-call').filter({ hasText: 'todo_write(' })).toHaveCount(2);
});
