/** What the last import said: why it failed and whether anything was stored, or how many lines it skipped and the first of them. */
import { useAppStore } from '../../store/store.ts';
import { StorageFull } from '../common/StorageFull.tsx';

export function ImportNotice() {
  const notice = useAppStore((state) => state.notice);
  const setNotice = useAppStore((state) => state.setNotice);
  if (!notice) return null;
  const skipped = notice.skipped ?? notice.issues?.length ?? 0;
  const listed = Math.min(5, notice.issues?.length ?? 0);
  return (
    <div className={notice.error ? 'notice error' : 'notice warn'} role="alert" data-testid="import.notice">
      {notice.error ? (
        <>
          <p>
            <strong>{notice.nothingChanged === false ? `${notice.fileName} was imported.` : `Could not import ${notice.fileName}.`}</strong> <span data-testid="import.notice.error">{notice.error}</span>
            {notice.nothingChanged && !/nothing was changed\.$/.test(notice.error) && ' Nothing already stored was changed.'}
          </p>
          {notice.storageFull && <StorageFull />}
        </>
      ) : (
        <>
          <p>
            <strong>{notice.fileName}</strong> imported; <span data-testid="import.notice.skipped">{skipped.toLocaleString('en-US')}</span> line{skipped === 1 ? '' : 's'} skipped
            {(notice.blankLines ?? 0) > 0 && ` (and ${(notice.blankLines ?? 0).toLocaleString('en-US')} blank)`}
            {skipped > listed ? `; the first ${listed}:` : ':'}
          </p>
          <ul className="small">
            {notice.issues?.slice(0, 5).map((issue) => (
              <li key={`${issue.line}-${issue.message}`} data-testid="import.notice.issue">
                line {issue.line}: {issue.message}
              </li>
            ))}
          </ul>
        </>
      )}
      <button type="button" className="link small" onClick={() => setNotice(undefined)} data-testid="import.notice.dismiss">
        Dismiss
      </button>
    </div>
  );
}
