/** Status bar: sandbox stats, running command, connection and kernel. */
import { formatBytes } from '../editor/fileKind.js';
import { NetworkStatus } from '../network/NetworkStatus.js';
import { useApp } from '../store/index.js';

export function StatusBar() {
  const stats = useApp((s) => (s.currentId ? s.stats[s.currentId] : undefined));
  const connection = useApp((s) => s.connection);
  const kernel = useApp((s) => s.kernel);
  const mode = useApp((s) => s.mode);
  const browse = useApp((s) => s.browse);
  return (
    <footer className="statusbar" aria-label="Status">
      <span className={`conn conn-${connection}`}>
        {connection === 'ready'
          ? `● ${mode}`
          : connection === 'connecting'
            ? '○ connecting'
            : '✕ disconnected'}
      </span>
      {stats && (
        <>
          <span data-testid="stat-files">{stats.files} files</span>
          <span data-testid="stat-bytes">{formatBytes(stats.bytes)}</span>
          <span data-testid="stat-processes">{stats.processes.length} processes</span>
          <span className="running" data-testid="stat-running">
            {stats.running ? `running: ${stats.running}` : 'idle'}
          </span>
        </>
      )}
      <NetworkStatus />
      {browse && <span className="browse-flag">browsing snapshot (read-only)</span>}
      <span className="spacer" />
      {kernel && <span className="kernel">engine: {kernel}</span>}
    </footer>
  );
}
