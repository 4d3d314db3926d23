/** Progress of the current sandbox's running imports: files and bytes of the totals, and Cancel. */
import { useShallow } from 'zustand/react/shallow';
import { formatBytes } from '../editor/fileKind.js';
import { useApp } from '../store/index.js';

export function ImportProgress() {
  const running = useApp(
    useShallow((s) => Object.values(s.imports).filter((i) => i.sandboxId === s.currentId)),
  );
  if (running.length === 0) return null;
  return (
    <div className="import-progress-list">
      {running.map((i) => {
        const share =
          i.totalBytes > 0 ? i.bytes / i.totalBytes : i.files / Math.max(1, i.totalFiles);
        return (
          <div
            key={i.importId}
            className="import-progress"
            role="status"
            aria-label={`Importing into ${i.dir}`}
          >
            <div className="import-progress-text">
              <span>
                Importing into <code>{i.dir}</code>
              </span>
              <span data-testid="import-counts">
                {i.files.toLocaleString('en-US')} / {i.totalFiles.toLocaleString('en-US')} files,{' '}
                {formatBytes(i.bytes)} / {formatBytes(i.totalBytes)}
              </span>
            </div>
            <progress max={1} value={share} aria-label="Import progress" />
            <button onClick={() => useApp.getState().cancelImport(i.importId)}>Cancel</button>
          </div>
        );
      })}
    </div>
  );
}
