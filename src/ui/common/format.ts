/**
 * Number formatting for the UI with one shared `Intl.NumberFormat`: `n.toLocaleString('en-US')`
 * builds a new ICU formatter on every call (about 0.1 ms each in Chromium), which adds up to long
 * main-thread tasks when a transcript, its totals and the progress bars render.
 */
const EN_US = new Intl.NumberFormat('en-US');

/** `1234567` -> `"1,234,567"`, the same text as `n.toLocaleString('en-US')`. */
export function formatNumber(n: number): string {
  return EN_US.format(n);
}
