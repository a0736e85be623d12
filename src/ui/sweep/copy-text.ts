/**
 * Copies a handed-back block to the clipboard. The Clipboard API needs a secure context and may be
 * refused (permissions, an embedding page); then the caller selects the text so the user can copy
 * it with the keyboard, and says so.
 */

export type CopyOutcome = 'copied' | 'select';

/** 'copied' once the clipboard holds `text`; 'select' when there is no clipboard or it refused. */
export async function copyText(text: string, clipboard: Pick<Clipboard, 'writeText'> | undefined = globalThis.navigator?.clipboard): Promise<CopyOutcome> {
  if (!clipboard) return 'select';
  try {
    await clipboard.writeText(text);
    return 'copied';
  } catch {
    return 'select';
  }
}

/** Selects an element's text, for the user to copy with Ctrl+C / ⌘C when the clipboard refused. */
export function selectContents(element: Element): void {
  const selection = globalThis.getSelection?.();
  if (!selection) return;
  const range = element.ownerDocument.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}
