/**
 * Choose or drop transcript files or a folder (a Claude Code session with its `subagents/` folder);
 * the format is detected from its content unless the user picks one. Also offers the generated demo
 * and the bundled real samples.
 */
import { useRef, useState, type DragEvent } from 'react';
import { importDemo, importSample } from '../../store/actions.ts';
import { importFiles as importPicked, pickedFiles, type PickedFile } from '../../store/import-files.ts';
import { FORMAT_IDS, FORMAT_LABELS, type FormatId } from '../../store/view/vocabulary.ts';
import { droppedFiles } from './dropped-files.ts';
import { SAMPLES } from './samples.ts';
import { StoragePersistence } from './StoragePersistence.tsx';

export function ImportControls() {
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [format, setFormat] = useState<FormatId | 'auto'>('auto');
  const [dragging, setDragging] = useState(false);

  const importFiles = (files: PickedFile[]) => importPicked(files, format === 'auto' ? {} : { format });

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void droppedFiles(event.dataTransfer).then(importFiles);
  };

  return (
    <section className="import" aria-labelledby="import-heading">
      <h2 id="import-heading">Import</h2>
      <div
        className={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="import.dropzone"
      >
        <button type="button" className="primary" onClick={() => input.current?.click()} data-testid="import.choose">
          Choose a transcript…
        </button>
        <button type="button" onClick={() => folderInput.current?.click()} data-testid="import.choose-folder">
          Choose a folder…
        </button>
        <span className="muted">or drop files or a folder here (a session with its subagents)</span>
        <input
          ref={input}
          type="file"
          accept=".jsonl,.json,.ndjson,.txt,.vscdb,application/json"
          multiple
          hidden
          onChange={(event) => {
            void importFiles(pickedFiles(event.target.files ?? []));
            event.target.value = '';
          }}
          data-testid="import.input"
        />
        <input
          ref={folderInput}
          type="file"
          // A folder pick: React passes the non-standard attribute through as it is.
          {...{ webkitdirectory: '' }}
          multiple
          hidden
          onChange={(event) => {
            void importFiles(pickedFiles(event.target.files ?? []));
            event.target.value = '';
          }}
          data-testid="import.folder-input"
        />
      </div>
      <StoragePersistence />
      <label className="field">
        <span>Format</span>
        <select value={format} onChange={(event) => setFormat(event.target.value as FormatId | 'auto')} data-testid="import.format">
          <option value="auto">Detect from content</option>
          {FORMAT_IDS.map((id) => (
            <option key={id} value={id}>
              {FORMAT_LABELS[id]}
            </option>
          ))}
        </select>
      </label>
      <h3>Examples</h3>
      <ul className="samples">
        <li>
          <button type="button" className="link" onClick={() => void importDemo({ userStarted: true })} data-testid="samples.demo">
            Demo: generated coding-agent session
          </button>
          <span className="muted">300 iterations, tool calls and results</span>
        </li>
        <li>
          <button type="button" className="link" onClick={() => void importDemo({ userStarted: true, language: 'mixed' })} data-testid="samples.demo-zh">
            Demo in Chinese and Japanese
          </button>
          <span className="muted">the same generator, most requests and replies in Chinese or Japanese</span>
        </li>
        {SAMPLES.map((sample) => (
          <li key={sample.id}>
            <button type="button" className="link" onClick={() => void importSample(sample.path, sample.title)} data-testid={`samples.${sample.id}`}>
              {sample.title}
            </button>
            <span className="muted">{sample.description}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
