/**
 * Stopping one WebLLM generation with the fewest interrupts that surely stop it. WebLLM clears its
 * interrupt flag when a generation takes the model (before prefill), so an interrupt that arrives
 * earlier is lost; a chunk of the generation proves it had started, and an interrupt sent after
 * one cannot be cleared. So the interrupt goes out once when asked, and once more, on the first
 * content chunk after it, only when no chunk had arrived before it. Chunks that were already on
 * their way when it went out (more of them the busier the machine) bring no more interrupts:
 * repeating it for each would tell the engine to stop the same reply once per chunk in flight.
 */
import type { ChatCompletionChunk } from '@mlc-ai/web-llm';

export interface GenerationInterrupt {
  /** Stops the generation: the interrupt is sent the first time, later calls do nothing. */
  interrupt(): void;
  /** Sees each chunk read from the generation's stream, in order; sends the one repeat when it is needed. */
  chunk(chunk: ChatCompletionChunk): void;
  /** Whether interrupt() was called. */
  readonly interrupted: boolean;
}

/** `send` tells the engine to interrupt (WebLLM's interruptGenerate, or the message that asks for it). */
export function generationInterrupt(send: () => void): GenerationInterrupt {
  let started = false;
  /** running: not asked; sent: the interrupt surely reaches the generation; unsure: it may have been cleared. */
  let state: 'running' | 'sent' | 'unsure' = 'running';
  return {
    interrupt() {
      if (state !== 'running') return;
      state = started ? 'sent' : 'unsure';
      send();
    },
    chunk(chunk) {
      started = true;
      if (state === 'unsure' && chunk.choices[0]?.delta.content) {
        state = 'sent';
        send();
      }
    },
    get interrupted() {
      return state !== 'running';
    },
  };
}
