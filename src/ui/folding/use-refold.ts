/**
 * The Fold view's side of refold-gate.ts: tells the gate how long the journal is, and gives the
 * fold effect a revision that moves when the grown journal should be folded again.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { createRefoldGate, REFOLD_DELAY_MS, REFOLD_MODEL_DELAY_MS, type RefoldGate } from './refold-gate.ts';

/** `revision` moves when the journal (now `size` entries) is due to be folded again; the fold reports to `gate`, with `currentSize()`. */
export function useRefold(size: number, useModel: boolean): { revision: number; gate: RefoldGate; currentSize: () => number } {
  const [revision, setRevision] = useState(0);
  const sizeRef = useRef(size);
  const modelRef = useRef(useModel);
  const [gate] = useState(() => createRefoldGate(() => setRevision((r) => r + 1), () => (modelRef.current ? REFOLD_MODEL_DELAY_MS : REFOLD_DELAY_MS)));
  useEffect(() => {
    modelRef.current = useModel;
  }, [useModel]);
  useEffect(() => {
    sizeRef.current = size;
    gate.grew(size);
  }, [gate, size]);
  useEffect(() => () => gate.dispose(), [gate]);
  const currentSize = useCallback(() => sizeRef.current, []);
  return { revision, gate, currentSize };
}
