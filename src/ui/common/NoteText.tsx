/** A note with the entry ids in it named by line and excerpt; the id shows on hover (title). */
import type { Entry } from '../../core/journal/entry.ts';
import { noteParts } from '../../store/view/entry-ref.ts';

export function NoteText({ note, byId }: { note: string; byId: (id: string) => Entry | undefined }) {
  return (
    <>
      {noteParts(note, byId).map((part, i) => ('id' in part
        ? <abbr key={i} className="entry-ref" title={part.id} data-entry-id={part.id} data-testid="note.entry-ref">{part.ref}</abbr>
        : <span key={i}>{part.text}</span>))}
    </>
  );
}
