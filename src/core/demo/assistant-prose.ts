// The demo agent's prose: its thinking before a step, the sentence it says before a tool call, and
// the summary that ends a turn, in English, Japanese or Chinese as the user wrote.

import { BASE64, type Rng } from './rng.ts';
import { ROOT, type Block, type Lang, type ToolCall, type Turn } from './session-shape.ts';

export function thinking(r: Rng, turn: Turn, calls: ToolCall[]): Block {
  const t = turn.task;
  const parts = [
    `The user wants: ${t.title.toLowerCase()}.`,
    `The relevant code is probably in ${t.files.join(' and ')}, and the tests live in ${t.test}.`,
    turn.lastWasFailure ? `The last test run failed: expected ${t.expected} but got ${t.received}. So ${t.symbol} still has the old behaviour on that path.` : `I should check how ${t.symbol} is called before changing it, so I don't break callers.`,
    calls[0] ? `Next step: ${calls[0].name} ${JSON.stringify(calls[0].input).slice(0, 80)}.` : 'Everything passes now; I should summarize the change for the user.',
    `The constraint is to keep the public API stable, so the signature of ${t.symbol} must not change.`,
    'Let me also keep in mind the edge cases: empty input, negative amounts, and currencies with 0 decimals like JPY.',
    'Rounding must stay in integer minor units; converting to floats anywhere would reintroduce drift.',
  ];
  const picked = parts.filter(() => r.chance(0.55));
  if (turn.lang !== 'en') picked.unshift(`The user writes in ${turn.lang === 'ja' ? 'Japanese' : 'Chinese'}: "${turn.prompt.slice(0, 60)}…". I'll answer in the same language.`);
  const text = r.chance(0.1) ? '' : picked.join(' ');
  return { type: 'thinking', thinking: text, signature: `Eq${r.chars(BASE64, r.int(100, 500))}` };
}

export function narrate(r: Rng, turn: Turn, call: ToolCall): string {
  const t = turn.task;
  const file = typeof call.input.file_path === 'string' ? `\`${call.input.file_path.replace(`${ROOT}/`, '')}\`` : 'the file';
  if (call.name === 'Bash') return narrateCommand(r, turn.lang, String(call.input.command));
  if (turn.lang === 'ja') {
    const ja: Record<string, string[]> = {
      Read: [`${file} を確認します。`, `まず ${file} の実装を読みます。`],
      Edit: [`\`${t.symbol}\` を修正します。`, '原因が分かりました。修正します。'],
      Grep: [`\`${t.symbol}\` の使用箇所を検索します。`],
      Glob: ['関連するファイルを探します。'],
      Write: [`${file} を新規作成します。`],
      TodoWrite: ['作業を手順に分けて進めます。', 'TODO リストを更新します。'],
    };
    const options = ja[call.name];
    if (options) return r.pick(options);
  }
  if (turn.lang === 'zh') {
    const zh: Record<string, string[]> = {
      Read: [`先看一下 ${file} 的实现。`],
      Edit: [`修改 \`${t.symbol}\`。`, '找到原因了，现在修复。'],
      Grep: [`搜索 \`${t.symbol}\` 的调用位置。`],
      Glob: ['先找一下相关文件。'],
      Write: [`新建 ${file}。`],
      TodoWrite: ['把任务拆成几个步骤。', '更新一下待办列表。'],
    };
    const options = zh[call.name];
    if (options) return r.pick(options);
  }
  switch (call.name) {
    case 'Read':
      return r.pick([`Let me read ${file}.`, `Let me look at ${file} to see how \`${t.symbol}\` works.`, `I'll check ${file} next.`, 'Now let me look at the test file to see what it expects.']);
    case 'Edit':
      return turn.lastWasFailure
        ? r.pick([`The test shows ${t.received} where ${t.expected} is expected. The bug is in \`${t.symbol}\`; let me fix it.`, `I see the problem: the ${t.symbol} path still uses the old logic. Fixing it.`])
        : r.pick([`Now I'll update \`${t.symbol}\`.`, `I'll make the change in ${file}.`, 'Let me add the test cases first.']);
    case 'Write':
      return `I'll create ${file}.`;
    case 'Grep':
      return r.pick([`Let me find where \`${t.symbol}\` is used.`, `Let me search for callers of \`${t.symbol}\`.`]);
    case 'Glob':
      return 'Let me find the relevant files.';
    case 'TodoWrite':
      return r.pick(["I'll break this down into steps.", 'Let me update the todo list.']);
    default:
      return 'Let me continue.';
  }
}

function narrateCommand(r: Rng, lang: Lang, command: string): string {
  const kind = /pytest|vitest|npm test/.test(command) ? 0 : /git (diff|status)/.test(command) ? 1 : /tsc|mypy/.test(command) ? 2 : /lint|ruff/.test(command) ? 3 : 4;
  const texts: Record<Lang, string[][]> = {
    en: [['Let me run the tests.', 'Now let me run the test suite to confirm the fix.', 'Running the tests again.'], ["Let me check what's changed.", 'Let me review the diff.'], ['Running the type checker.'], ['Let me run the linter.'], ['Let me look around.', 'Let me check the repository history and layout.']],
    ja: [['テストを実行して確認します。'], ['変更内容を確認します。'], ['型チェックを実行します。'], ['Lint を実行します。'], ['リポジトリの構成を確認します。']],
    zh: [['运行测试确认一下。'], ['看一下改动。'], ['运行类型检查。'], ['运行 lint。'], ['先看一下仓库结构。']],
  };
  return r.pick(texts[lang][kind] as string[]);
}

export function summaryText(r: Rng, turn: Turn): string {
  const t = turn.task;
  const tests = r.int(80, 140);
  const files = [...new Set([...turn.edits.map((e) => e.path), ...t.files.slice(0, 1), t.test])];
  if (turn.lang === 'ja') {
    return ['完了しました。変更内容は以下のとおりです。', '', ...files.map((p) => `- **\`${p}\`**: \`${t.symbol}\` まわりを修正`), '', `\`npm test\` はすべて通過しています（${tests} 件）。公開 API は変更していません。`].join('\n');
  }
  if (turn.lang === 'zh') {
    return ['已完成，修改如下：', '', ...files.map((p) => `- **\`${p}\`**：更新了 \`${t.symbol}\` 相关逻辑`), '', `所有测试均已通过（${tests} 个），没有引入新的依赖。`].join('\n');
  }
  const runner = t.lang === 'py' ? '`pytest scripts/etl`' : '`npm test`';
  return [
    r.pick(['Done. Summary of the changes:', "All set. Here's what changed:", 'The fix is in. Changes:']),
    '',
    ...t.bullets.map((b) => `- ${b}`),
    '',
    `Files touched: ${files.map((p) => `\`${p}\``).join(', ')}.`,
    '',
    `${runner} passes (${tests} tests)${t.lang === 'ts' ? ' and `npx tsc --noEmit` is clean' : ''}. ${r.pick(['No exported signatures changed.', 'No new dependencies.', 'The diff is limited to the files above.'])}`,
  ].join('\n');
}