/**
 * A message's text block. In a user message the harness's text (an IDE's opened file or selection,
 * reminders, command echoes) is set apart and tagged "injected" with what it is, so it is never
 * read as the person's words, and shown as written; the words themselves (and every reply) render
 * as markdown.
 */
import type { Entry } from '../../core/journal/entry.ts';
import { messageParts } from '../../store/view/transcript.ts';
import { Clipped } from './Clipped.tsx';

export function MessageText({ text, entry, max }: { text: string; entry: Entry; max: number }) {
  if (entry.flags?.injected) return <Clipped className="text" text={text} max={max} />;
  if (entry.role !== 'user') return <Clipped className="text" text={text} max={max} markdown />;
  const parts = messageParts(text);
  if (parts.length <= 1 && !parts[0]?.harness) return <Clipped className="text" text={text} max={max} markdown />;
  return (
    <>
      {parts.map((part, i) => (part.harness ? (
        <div key={i} className="injected-part" data-testid="transcript.injected-part" data-harness={part.harness}>
          <span className="badge">injected · {part.harness}</span>
          <Clipped className="text" text={part.text} max={max} />
        </div>
      ) : <Clipped key={i} className="text" text={part.text} max={max} markdown />))}
    </>
  );
}
