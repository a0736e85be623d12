/**
 * The library of imported conversations (live from IndexedDB): open, rename, re-import, delete
 * (after confirmation). A session's subagents are listed under it (library-tree.ts), shown or hidden
 * with its subagents button. Arrow keys move between items, nested ones included.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { memo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { ConversationRow } from '../../db/schema.ts';
import { errorMessage, importFile } from '../../store/actions.ts';
import { deleteFromLibrary, renameInLibrary } from '../../store/library-actions.ts';
import { conversationsNewestFirst } from '../../store/library-reads.ts';
import { useAppStore } from '../../store/store.ts';
import { FORMAT_LABELS } from '../../store/view/vocabulary.ts';
import { ConfirmDialog } from '../common/ConfirmDialog.tsx';
import { BackupControls } from './BackupControls.tsx';
import { formatNumber } from '../common/format.ts';
import { libraryTree, subagentNote, type LibraryNode } from './library-tree.ts';

export function ConversationList() {
  const conversations = useLiveQuery(conversationsNewestFirst, []);
  const selectedId = useAppStore((state) => state.selectedId);
  const select = useAppStore((state) => state.select);
  const list = useRef<HTMLUListElement>(null);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const items = Array.from(list.current?.querySelectorAll<HTMLButtonElement>('button.open') ?? []);
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const next = items[at + (event.key === 'ArrowDown' ? 1 : -1)];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  };

  if (conversations === undefined) return <p className="muted">Loading library…</p>;
  return (
    <section aria-labelledby="library-heading">
      <h2 id="library-heading">Library ({conversations.length})</h2>
      <BackupControls />
      {conversations.length === 0 && <p className="muted">Nothing imported yet.</p>}
      <ul className="library" ref={list} onKeyDown={onKeyDown} data-testid="library.list">
        {libraryTree(conversations).map((node) => (
          <ConversationItem
            key={node.row.id}
            conversation={node.row}
            selected={node.row.id === selectedId}
            onOpen={() => select(node.row.id)}
            {...(node.parentMissing !== undefined ? { parentMissing: node.parentMissing } : {})}
            {...(node.subagents.length > 0 ? { subagents: { count: node.subagents.length, list: <Subagents node={node} selectedId={selectedId} onOpen={select} /> } } : {})}
          />
        ))}
      </ul>
    </section>
  );
}

/** A session's subagents, nested under its item. */
function Subagents({ node, selectedId, onOpen }: { node: LibraryNode; selectedId: string | undefined; onOpen: (id: string) => void }) {
  return (
    <ul className="library subagents" aria-label={`Subagents of ${node.row.title}`} data-testid="library.subagents">
      {node.subagents.map((row) => (
        <ConversationItem key={row.id} conversation={row} selected={row.id === selectedId} onOpen={() => onOpen(row.id)} />
      ))}
    </ul>
  );
}

interface ConversationItemProps {
  conversation: ConversationRow;
  selected: boolean;
  onOpen: () => void;
  /** How many subagents this session has and their nested list. */
  subagents?: { count: number; list: ReactNode };
  /** For a subagent whose session is not in the library: that session's id. */
  parentMissing?: string;
}

/** What an item shows of its row: a live session rewrites its row at every entry, the others' items need not redraw. */
function sameItem(a: ConversationItemProps, b: ConversationItemProps): boolean {
  const x = a.conversation;
  const y = b.conversation;
  return a.selected === b.selected && x.id === y.id && x.title === y.title && x.format === y.format && x.entryCount === y.entryCount && x.issues.length === y.issues.length
    && a.subagents === undefined && b.subagents === undefined && a.parentMissing === b.parentMissing;
}

// `onOpen` is left out of the comparison: it always opens the item's own conversation.
const ConversationItem = memo(function ConversationItem({ conversation, selected, onOpen, subagents, parentMissing }: ConversationItemProps) {
  const [renaming, setRenaming] = useState(false);
  const [showSubagents, setShowSubagents] = useState(false);
  const note = subagentNote(conversation);
  const subagentCount = subagents?.count ?? 0;
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const reimportInput = useRef<HTMLInputElement>(null);
  const select = useAppStore((state) => state.select);

  const rename = async (title: string) => {
    try {
      await renameInLibrary(conversation.id, title);
      setRenaming(false);
      setError(undefined);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <li className={selected ? 'selected' : ''} data-testid="library.item" data-conversation-id={conversation.id}>
      {renaming ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void rename(new FormData(event.currentTarget).get('title')?.toString() ?? '');
          }}
        >
          <input name="title" defaultValue={conversation.title} autoFocus aria-label="New name" data-testid="library.item.title-input" onKeyDown={(event) => event.key === 'Escape' && setRenaming(false)} />
          <button type="submit" data-testid="library.item.save">Save</button>
        </form>
      ) : (
        <button type="button" className="open" onClick={onOpen} aria-current={selected} data-testid="library.item.open">
          <span className="title">{conversation.title}</span>
          <span className="muted small">
            {conversation.title !== conversation.fileName && <span className="file-name" data-testid="library.item.file">{conversation.fileName} · </span>}
            {FORMAT_LABELS[conversation.format]} · {formatNumber(conversation.entryCount)} entries
            {conversation.issues.length > 0 && ` · ${conversation.issues.length} problems`}
          </span>
          {note !== undefined && (
            <span className="muted small" data-testid="library.item.subagent">
              {note}
              {parentMissing !== undefined && ` · of session ${parentMissing ? parentMissing.slice(0, 8) : '(unknown)'} (not imported)`}
            </span>
          )}
        </button>
      )}
      {error && <p className="error small">{error}</p>}
      <div className="item-actions">
        <button type="button" className="link" onClick={() => setRenaming(true)} data-testid="library.item.rename">Rename</button>
        <button type="button" className="link" onClick={() => reimportInput.current?.click()} data-testid="library.item.reimport">Re-import</button>
        <button type="button" className="link danger" onClick={() => setConfirming(true)} data-testid="library.item.delete">Delete</button>
        {subagentCount > 0 && (
          <button type="button" className="link" aria-expanded={showSubagents} onClick={() => setShowSubagents((shown) => !shown)} data-testid="library.item.subagents-toggle">
            {showSubagents ? 'Hide' : 'Show'} {subagentCount} subagent{subagentCount === 1 ? '' : 's'}
          </button>
        )}
        <input
          ref={reimportInput}
          type="file"
          hidden
          accept=".jsonl,.json,.ndjson,.txt,.vscdb,application/json"
          data-testid="library.item.reimport-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void importFile(file, { replaceId: conversation.id });
            event.target.value = '';
          }}
        />
      </div>
      {showSubagents && subagents?.list}
      {confirming && (
        <ConfirmDialog
          title="Delete this conversation?"
          message={`"${conversation.title}" and its ${formatNumber(conversation.entryCount)} entries will be removed from this browser. The original file is not touched.`}
          confirmLabel="Delete"
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            if (selected) select(undefined);
            void deleteFromLibrary(conversation.id);
          }}
        />
      )}
    </li>
  );
}, sameItem);
