/**
 * Unpredictable delimiters for what a model is asked to summarize. The prompt files wrap a
 * transcript in tags (`<conversation>`, `<summaries>`, ...) that the transcript itself cannot
 * close; before each request to a model the tags of every such block get a fresh random number
 * (`<conversation-48203…>`), so a transcript written to fool a summarizer cannot know, let alone
 * forge, the tag that ends it. The prompt files' data-only instruction refers to these tags.
 */

/** Decimal digits in a random tag suffix (about 80 bits). */
export const NONCE_DIGITS = 24;

/** A random decimal string from crypto.getRandomValues (unbiased: bytes >= 250 are drawn again). */
export function randomNonce(digits = NONCE_DIGITS): string {
  let out = '';
  const bytes = new Uint8Array(digits * 2);
  while (out.length < digits) {
    crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte < 250 && out.length < digits) out += String(byte % 10);
    }
  }
  return out;
}

// An opening tag as wrapTranscript or a prompt file writes it (`<name>`, `<name-N>`, `<previous-summary>`) followed by a line break.
const OPENING = /<([a-z][a-z_-]*?)(?:-\d+)?>\n/gi;

/**
 * The prompt with each delimited block (outermost first, left to right) re-tagged with a random
 * suffix. A block's content is never scanned for tags: it is data. `nonce` is injectable for tests.
 */
export function fencePrompt(prompt: string, nonce: () => string = randomNonce): string {
  let out = '';
  let pos = 0;
  OPENING.lastIndex = 0;
  for (let match = OPENING.exec(prompt); match; match = OPENING.exec(prompt)) {
    const whole = match[0];
    const tag = whole.slice(1, -2);
    const contentStart = match.index + whole.length;
    const closing = `\n</${tag}>`;
    const end = prompt.indexOf(closing, contentStart - 1);
    if (end < 0) continue;
    const name = match[1]!;
    let fresh = `${name}-${nonce()}`;
    while (prompt.includes(fresh)) fresh = `${name}-${nonce()}`;
    const content = prompt.slice(contentStart, Math.max(contentStart, end));
    out += `${prompt.slice(pos, match.index)}<${fresh}>\n${content}\n</${fresh}>`;
    pos = end + closing.length;
    OPENING.lastIndex = pos;
  }
  return out + prompt.slice(pos);
}
