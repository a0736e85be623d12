/**
 * For tests only: a Claude Code transcript with one more line, a Bash call whose input nests
 * objects `levels` deep (a hostile or runaway tool input), built as text since JSON.stringify cannot.
 */

/** The Claude Code sample every deep-input test extends (its line 9 is a Bash call). */
export const DEEP_SAMPLE = 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl';

/** `{"a":{"a":…"x"…}}` nested `levels` objects deep, as text. */
export function nestedText(levels: number): string {
  return `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;
}

/** `sample` (DEEP_SAMPLE's text) with a Bash call after its last line whose input nests `levels` objects deep; `line` is its number. */
export function withDeepCall(sample: string, levels: number): { text: string; line: number } {
  const SAMPLE = sample.trimEnd().split('\n');
  const last = JSON.parse(SAMPLE.at(-1)!) as { uuid: string };
  const call = JSON.parse(SAMPLE[8]!) as { uuid: string; parentUuid: string; message: { id: string; content: Array<{ id: string; input: unknown }> } };
  call.uuid = 'deep-call';
  call.parentUuid = last.uuid;
  call.message.id = 'msg_deep';
  call.message.content[0]!.id = 'toolu_deep';
  call.message.content[0]!.input = '__INPUT__';
  const line = JSON.stringify(call).replace('"__INPUT__"', nestedText(levels));
  return { text: `${[...SAMPLE, line].join('\n')}\n`, line: SAMPLE.length + 1 };
}
