/**
 * A long text in a <pre> (or as markdown), clipped with "Show all"; a labelled one is a scrollable
 * box that takes keyboard focus.
 */
import { useState } from 'react';
import { formatNumber } from '../common/format.ts';
import { MarkdownText } from '../common/MarkdownText.tsx';

/** Characters of a block shown before "Show all". */
export const CLIP = 2000;

/** Long text, clipped; `label` names a scrollable box, which then takes keyboard focus to scroll; `markdown` renders it as markdown. */
export function Clipped({ text, className, label, max = CLIP, markdown }: { text: string; className: string; label?: string; max?: number; markdown?: boolean }) {
  const [open, setOpen] = useState(false);
  const clipped = !open && text.length > max;
  return (
    <div className={className}>
      {markdown ? (
        <MarkdownText text={clipped ? `${text.slice(0, max)}…` : text} />
      ) : (
        <pre {...(label ? { tabIndex: 0, role: 'group', 'aria-label': label } : {})}>{clipped ? `${text.slice(0, max)}…` : text}</pre>
      )}
      {text.length > max && (
        <button type="button" className="link small" onClick={() => setOpen(!open)}>
          {open ? 'Show less' : `Show all ${formatNumber(text.length)} characters`}
        </button>
      )}
    </div>
  );
}
