/**
 * Numbers as the plans' notes show them ("912,331"), the same text as `toLocaleString('en-US')`:
 * integers are grouped by hand, since a replay writes notes at every call and the locale-aware
 * formatter costs more than the rest of a small plan. Anything else goes to the formatter.
 */

/** `n.toLocaleString('en-US')`. */
export function formatNumber(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(n < 0 ? -n : n);
  let out: string;
  if (digits.length <= 3) out = digits;
  else {
    const head = digits.length % 3 || 3;
    out = digits.slice(0, head);
    for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  }
  return n < 0 ? `-${out}` : out;
}
