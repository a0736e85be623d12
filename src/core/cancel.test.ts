import { describe, expect, it } from 'vitest';
import { foldSummariesCancelled } from './folding/model-enrich.ts';
import { HookRefusedError } from './hooks/user-hooks.ts';
import { modelStopped } from './agent/types.ts';
import { compactionCancelled } from './compaction/summarizer.ts';
import { judgeCancelled } from './replay/judge.ts';
import { CancelledError, isCancelled } from './cancel.ts';

/** What crosses a worker boundary: `{ name, message }` (Comlink's throw handler and every protocol of ours). */
const wire = (error: Error) => structuredClone({ name: error.name, message: error.message });
/** How the page rebuilds it: a new Error carrying the name (Comlink: Object.assign(new Error(message), value)). */
const rebuilt = (error: Error) => Object.assign(new Error(error.message), wire(error));

describe('isCancelled', () => {
  const cancels = [new CancelledError(), compactionCancelled(), judgeCancelled(), foldSummariesCancelled(), modelStopped()];

  it('recognises every cancel, each with a message that says what was stopped', () => {
    for (const error of cancels) expect(isCancelled(error)).toBe(true);
    expect(cancels.map((error) => error.message)).toEqual([
      'Cancelled: nothing was changed.',
      'Compaction cancelled: nothing was changed.',
      'Judging cancelled: nothing was stored.',
      'Model summaries cancelled; the ones already made are kept for the next fold.',
      'Stopped: the reply was not finished and is not kept.',
    ]);
  });

  it('still recognises a cancel after a structured-clone round trip, as a plain object and as a rebuilt Error, message kept', () => {
    for (const error of cancels) {
      expect(isCancelled(wire(error))).toBe(true);
      expect(isCancelled(JSON.parse(JSON.stringify(wire(error))))).toBe(true);
      const again = rebuilt(error);
      expect(again).not.toBeInstanceOf(CancelledError);
      expect(isCancelled(again)).toBe(true);
      expect(again.message).toBe(error.message);
    }
  });

  it('is false for failures that are not a cancel: a hook refusing, an abort of another kind, anything else', () => {
    const refused = new HookRefusedError('before-compact', 'not today');
    expect(isCancelled(refused)).toBe(false);
    expect(isCancelled(wire(refused))).toBe(false);
    expect(isCancelled(new Error('Compaction cancelled: nothing was changed.'))).toBe(false);
    expect(isCancelled(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toBe(false);
    for (const value of [undefined, null, 'CancelledError', 42, {}, { name: 42 }]) expect(isCancelled(value)).toBe(false);
  });
});
