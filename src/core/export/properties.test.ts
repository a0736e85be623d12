import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextEntry } from '../compaction/types.ts';
import type { Block, Entry, Role } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { importText } from '../import/run.ts';
import { toAnthropicMessages, type AnthropicMessage } from './anthropic.ts';
import { toOpenAIMessages, type OpenAIMessage } from './openai.ts';

type Step =
  | { t: 'user'; text: string }
  | { t: 'system' }
  | { t: 'summary' }
  | { t: 'assistant'; text: boolean; calls: number; thinking: 'none' | 'signed' | 'unsigned' | 'redacted' }
  | { t: 'result'; pick: number; orphan: boolean; asUser: boolean; error: boolean; parts: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ t: fc.constant('user' as const), text: fc.string({ minLength: 1, maxLength: 8 }) }),
  fc.record({ t: fc.constant('system' as const) }),
  fc.record({ t: fc.constant('summary' as const) }),
  fc.record({
    t: fc.constant('assistant' as const),
    text: fc.boolean(),
    calls: fc.integer({ min: 0, max: 3 }),
    thinking: fc.constantFrom('none' as const, 'signed' as const, 'unsigned' as const, 'redacted' as const),
  }),
  fc.record({
    t: fc.constant('result' as const),
    pick: fc.nat(),
    orphan: fc.boolean(),
    asUser: fc.boolean(),
    error: fc.boolean(),
    parts: fc.integer({ min: 0, max: 2 }),
  }),
  // Results are the most common step, as in real sessions.
  fc.record({ t: fc.constant('result' as const), pick: fc.nat(), orphan: fc.constant(false), asUser: fc.constant(false), error: fc.constant(false), parts: fc.constant(1) }),
);

/** A context from steps, and how many call/result pairs it holds (a result after its call). */
function build(steps: readonly Step[]): { context: ContextEntry[]; pairs: number } {
  const context: ContextEntry[] = [];
  const pending: string[] = [];
  let calls = 0;
  let orphans = 0;
  let pairs = 0;
  const push = (role: Role, blocks: Block[], origin: ContextEntry['origin'] = 'journal'): void => {
    const index = context.length;
    const entry: Entry = { id: `e${index}`, index, parentId: index === 0 ? null : `e${index - 1}`, role, kind: 'message', blocks, sourceType: 'test', line: index + 1 };
    context.push(origin === 'summary' ? { role, entry, origin, replaces: { fromId: 'x0', toId: 'x1', count: 2 } } : { role, entry, origin });
  };
  for (const step of steps) {
    switch (step.t) {
      case 'user':
        push('user', [{ type: 'text', text: step.text }]);
        break;
      case 'system':
        push('system', [{ type: 'text', text: 'rules' }]);
        break;
      case 'summary':
        push('summary', [{ type: 'text', text: 'summary of earlier work' }], 'summary');
        break;
      case 'assistant': {
        const blocks: Block[] = [];
        if (step.thinking === 'signed') blocks.push({ type: 'thinking', text: 'hmm', signature: 'sig' });
        if (step.thinking === 'unsigned') blocks.push({ type: 'thinking', text: 'hmm' });
        if (step.thinking === 'redacted') blocks.push({ type: 'thinking', text: '', redacted: true, signature: 'opaque' });
        if (step.text) blocks.push({ type: 'text', text: 'ok' });
        for (let i = 0; i < step.calls; i++) {
          const id = `call_${calls++}`;
          pending.push(id);
          blocks.push({ type: 'tool_call', callId: id, name: 'Bash', input: { command: `echo ${id}` } });
        }
        push('assistant', blocks);
        break;
      }
      case 'result': {
        let callId: string;
        if (step.orphan || pending.length === 0) callId = `orphan_${orphans++}`;
        else {
          callId = pending.splice(step.pick % pending.length, 1)[0] ?? 'never';
          pairs++;
        }
        const content = Array.from({ length: step.parts }, (_, i) => ({ type: 'text' as const, text: `out ${i}` }));
        const blocks: Block[] = [{ type: 'tool_result', callId, content, isError: step.error }];
        if (step.asUser) blocks.push({ type: 'text', text: 'after the result' });
        push(step.asUser ? 'user' : 'tool', blocks);
        break;
      }
    }
  }
  return { context, pairs };
}

function anthropicViolations(messages: readonly AnthropicMessage[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, i) => {
    if (message.content.length === 0) problems.push(`message ${i} is empty`);
    const previous = messages[i - 1];
    if (previous && previous.role === message.role) problems.push(`messages ${i - 1} and ${i} are both ${message.role}`);
    for (const block of message.content) {
      if (message.role === 'user' && (block.type === 'tool_use' || block.type === 'thinking' || block.type === 'redacted_thinking')) problems.push(`user message ${i} holds ${block.type}`);
      if (message.role === 'assistant' && block.type === 'tool_result') problems.push(`assistant message ${i} holds tool_result`);
      if (block.type === 'text' && block.text.length === 0) problems.push(`message ${i} has an empty text block`);
    }
    if (message.role !== 'user') return;
    const kinds = message.content.map((block) => block.type === 'tool_result');
    const firstOther = kinds.indexOf(false);
    if (firstOther !== -1 && kinds.indexOf(true, firstOther) !== -1) problems.push(`user message ${i} has a tool_result after other content`);
    const answered = message.content.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : [])).sort();
    const asked = (previous?.role === 'assistant' ? previous.content : []).flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])).sort();
    if (JSON.stringify(answered) !== JSON.stringify(asked)) problems.push(`user message ${i} answers [${answered.join(',')}] but message ${i - 1} asked [${asked.join(',')}]`);
  });
  const last = messages[messages.length - 1];
  if (last?.role === 'assistant' && last.content.some((block) => block.type === 'tool_use')) problems.push('the last assistant message has unanswered tool_use');
  return problems;
}

function openAIViolations(messages: readonly OpenAIMessage[]): string[] {
  const problems: string[] = [];
  let i = 0;
  while (i < messages.length) {
    const message = messages[i];
    i++;
    if (!message) continue;
    if (message.role === 'tool') {
      problems.push(`tool message ${i - 1} (${message.tool_call_id}) does not follow an assistant tool_calls message`);
      continue;
    }
    if (message.role !== 'assistant') continue;
    if (message.content === null && !message.tool_calls?.length) problems.push(`assistant message ${i - 1} has neither content nor tool_calls`);
    if (!message.tool_calls) continue;
    const asked = message.tool_calls.map((call) => call.id).sort();
    const answered: string[] = [];
    while (i < messages.length && messages[i]?.role === 'tool') {
      const tool = messages[i];
      if (tool?.role === 'tool') answered.push(tool.tool_call_id);
      i++;
    }
    if (JSON.stringify(answered.sort()) !== JSON.stringify(asked)) problems.push(`assistant message asked [${asked.join(',')}] but the tool messages after it answer [${answered.join(',')}]`);
    for (const call of message.tool_calls) {
      try {
        JSON.parse(call.function.arguments);
      } catch {
        problems.push(`arguments of ${call.id} are not JSON`);
      }
    }
  }
  return problems;
}

describe('export properties', () => {
  it('the Anthropic export always satisfies the Messages API rules and keeps every pair', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), (steps) => {
        const { context, pairs } = build(steps);
        const before = structuredClone(context);
        const { messages } = toAnthropicMessages(context);
        expect(anthropicViolations(messages)).toEqual([]);
        const uses = messages.flatMap((message) => message.content.filter((block) => block.type === 'tool_use'));
        const results = messages.flatMap((message) => message.content.filter((block) => block.type === 'tool_result'));
        expect(uses).toHaveLength(pairs);
        expect(results).toHaveLength(pairs);
        expect(context).toEqual(before);
        if (messages.length > 0) {
          const back = importText(JSON.stringify({ messages }), { format: 'anthropic' });
          expect(linkReport(back.entries)).toEqual({ toolCalls: pairs, toolResults: pairs, orphanToolCalls: 0, orphanToolResults: 0 });
        }
      }),
      { numRuns: 400 },
    );
  });

  it('the OpenAI export puts every tool message right after its assistant tool_calls message and keeps every pair', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), fc.boolean(), (steps, reasoningContent) => {
        const { context, pairs } = build(steps);
        const messages = toOpenAIMessages(context, { reasoningContent });
        expect(openAIViolations(messages)).toEqual([]);
        expect(messages.flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []) : []))).toHaveLength(pairs);
        expect(messages.filter((message) => message.role === 'tool')).toHaveLength(pairs);
        if (messages.length > 0) {
          const back = importText(JSON.stringify(messages), { format: 'openai-chat' });
          expect(linkReport(back.entries)).toEqual({ toolCalls: pairs, toolResults: pairs, orphanToolCalls: 0, orphanToolResults: 0 });
        }
      }),
      { numRuns: 400 },
    );
  });
});
