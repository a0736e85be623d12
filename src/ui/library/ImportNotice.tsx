/** What the last import said: why it failed (nothing stored was touched), or which lines it skipped. */
import { useAppStore } from '../../store/store.ts';

export function ImportNotice() {
  const notice = useAppStore((state) => state.notice);
  const setNotice = useAppStore((state) => state.setNotice);
  if (!notice) return null;
  return (
    <div className={notice.error ? 'notice error' : 'notice warn'} role="alert" data-testid="import.notice">
      {notice.error ? (
        <p>
          <strong>Could not import {notice.fileName}.</strong> <span data-testid="import.notice.error">{notice.error}</span> Nothing already stored was changed.
        </p>
      ) : (
        <>
          <p>
            <strong>{notice.fileName}</strong> imported; {notice.issues?.length} line{notice.issues?.length === 1 ? '' : 's'} skipped:
          </p>
          <ul className="small">
            {notice.issues?.slice(0, 5).map((issue) => (
              <li key={`${issue.line}-${issue.message}`}>
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
