// When stopping a WebLLM generation sends an interrupt: once when asked, and once more only if no
// chunk had arrived before it (WebLLM may have cleared it), never once per chunk still in flight.
import type { ChatCompletionChunk } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { generationInterrupt } from './generation-interrupt.ts';

function chunk(content: string | undefined, finish: 'stop' | 'abort' | null = null): ChatCompletionChunk {
  return { id: 'c', created: 0, model: 'm', object: 'chat.completion.chunk', choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }] };
}

/** A latch over a counter of the interrupts it sent. */
function latch() {
  let sent = 0;
  const stop = generationInterrupt(() => { sent++; });
  return { stop, sent: () => sent };
}

describe('generationInterrupt', () => {
  it('asked after a chunk arrived: one interrupt, and the chunks already in flight send no more', () => {
    const { stop, sent } = latch();
    stop.chunk(chunk('Once '));
    expect(stop.interrupted).toBe(false);
    stop.interrupt();
    expect(stop.interrupted).toBe(true);
    for (const word of ['upon ', 'a ', 'time ']) stop.chunk(chunk(word));
    stop.chunk(chunk(undefined, 'abort'));
    expect(sent()).toBe(1);
  });

  it('asked before any chunk: repeated once on the first content chunk (WebLLM may have cleared it), then never', () => {
    const { stop, sent } = latch();
    stop.interrupt();
    expect(sent()).toBe(1);
    stop.chunk(chunk(undefined)); // a chunk without content: no repeat yet
    expect(sent()).toBe(1);
    stop.chunk(chunk('Once '));
    expect(sent()).toBe(2);
    for (const word of ['upon ', 'a ', 'time ']) stop.chunk(chunk(word));
    expect(sent()).toBe(2);
  });

  it('asked before any chunk of a generation that then ends without content: no repeat', () => {
    const { stop, sent } = latch();
    stop.interrupt();
    stop.chunk(chunk(undefined, 'abort'));
    expect(sent()).toBe(1);
  });

  it('asked again (Stop, then the worker lost): the first call alone sends', () => {
    const { stop, sent } = latch();
    stop.chunk(chunk('Once '));
    stop.interrupt();
    stop.interrupt();
    stop.chunk(chunk('upon '));
    stop.interrupt();
    expect(sent()).toBe(1);
  });

  it('never asked: chunks send nothing', () => {
    const { stop, sent } = latch();
    for (const word of ['a', 'b', 'c']) stop.chunk(chunk(word));
    stop.chunk(chunk(undefined, 'stop'));
    expect(sent()).toBe(0);
    expect(stop.interrupted).toBe(false);
  });
});
