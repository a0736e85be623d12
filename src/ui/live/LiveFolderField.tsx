/**
 * The folder of a new live session: the browser's folder picker where it has one (the live folder,
 * offered again after a reload), or a directory read as a snapshot (a copy taken now).
 */
import { canPickLiveFolder, loadDemoFolder, pickLiveFolder, snapshotFolder, type PickedFolder } from '../../store/live-folder.ts';

export function LiveFolderField({ picked, onPick, onError }: { picked: PickedFolder | undefined; onPick: (picked: PickedFolder) => void; onError: (message: string) => void }) {
  const live = canPickLiveFolder();
  const pick = async () => {
    try {
      const result = await pickLiveFolder();
      if (result) onPick(result);
    } catch (error) {
      onError(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <fieldset className="options" data-testid="live.setup.folder">
      <legend>Folder (read-only)</legend>
      {live && (
        <button type="button" onClick={() => void pick()} data-testid="live.setup.pick">
          Pick a folder…
        </button>
      )}
      <label className="field">
        <span className="small">{live ? 'or read a folder as a snapshot' : 'This browser cannot open a live folder: the folder is read as a snapshot'}</span>
        <input
          type="file"
          // React does not know the attribute; the browser does.
          {...{ webkitdirectory: '', directory: '' }}
          multiple
          onChange={(event) => {
            try {
              if (event.target.files) onPick(snapshotFolder(event.target.files));
            } catch (error) {
              onError(error instanceof Error ? error.message : String(error));
            }
          }}
          data-testid="live.setup.folder-input"
        />
      </label>
      <button
        type="button"
        onClick={() => void loadDemoFolder().then(onPick, (error: unknown) => onError(error instanceof Error ? error.message : String(error)))}
        data-testid="live.setup.demo-folder"
      >
        Use the demo folder (tiny-parser, made for the scripted demo)
      </button>
      {picked && (
        <p className="small" data-testid="live.setup.folder-picked">
          <strong>{picked.folder.name}</strong>{' '}
          {picked.folder.snapshot
            ? '— a snapshot: a copy read now; later changes on disk are not seen, and it cannot be kept after a reload (you pick it again).'
            : '— the live folder: read as it is at each step, and offered again after a reload.'}
        </p>
      )}
      <p className="muted small">The agent can list, search and read files in this folder, nothing else: it cannot write, delete or run anything.</p>
    </fieldset>
  );
}
