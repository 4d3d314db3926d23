/**
 * xterm addon for the shell's OSC 133 prompt marks: each command gets a
 * gutter decoration coloured by its exit status, and Ctrl+Up/Down jump
 * between commands. Shaped like xterm's addons (activate/dispose).
 */
import type { IDecoration, IDisposable, IMarker, ITerminalAddon, Terminal } from '@xterm/xterm';

export interface CommandMark {
  marker: IMarker;
  status: number | null;
  decoration?: IDecoration;
}

export class ShellIntegrationAddon implements ITerminalAddon {
  private term: Terminal | null = null;
  private readonly disposables: IDisposable[] = [];
  readonly commands: CommandMark[] = [];
  private pending: CommandMark | null = null;

  activate(term: Terminal): void {
    this.term = term;
    this.disposables.push(term.parser.registerOscHandler(133, (data) => this.onMark(data)));
  }

  private onMark(data: string): boolean {
    const term = this.term;
    if (!term) return false;
    const [kind, status] = data.split(';');
    if ((kind === 'A' || (kind === 'B' && !this.pending)) && !this.pending) {
      const marker = term.registerMarker(0);
      this.pending = { marker, status: null };
      marker.onDispose(() => {
        const i = this.commands.findIndex((c) => c.marker === marker);
        if (i >= 0) this.commands.splice(i, 1);
      });
    } else if (kind === 'D' && this.pending) {
      const mark = this.pending;
      this.pending = null;
      // D without C after an empty line has no status and no command: skip it.
      if (status === undefined || status === '') return true;
      mark.status = Number(status);
      this.commands.push(mark);
      this.decorate(mark);
    }
    return true;
  }

  private decorate(mark: CommandMark): void {
    const term = this.term;
    if (!term) return;
    const ok = mark.status === 0;
    const decoration = term.registerDecoration({
      marker: mark.marker,
      x: 0,
      width: 1,
      overviewRulerOptions: { color: ok ? '#3fb950' : '#f85149' },
    });
    if (!decoration) return;
    mark.decoration = decoration;
    decoration.onRender((el) => {
      el.classList.add('cmd-mark', ok ? 'cmd-ok' : 'cmd-fail');
      el.title = `exit status ${mark.status}`;
      el.dataset.status = String(mark.status);
    });
  }

  /** Scrolls to the previous (-1) or next (+1) command relative to the viewport top. */
  jump(direction: -1 | 1): boolean {
    const term = this.term;
    if (!term) return false;
    const top = term.buffer.active.viewportY;
    const lines = this.commands.map((c) => c.marker.line).filter((l) => l >= 0);
    if (this.pending && this.pending.marker.line >= 0) lines.push(this.pending.marker.line);
    lines.sort((a, b) => a - b);
    const target =
      direction < 0 ? [...lines].reverse().find((l) => l < top) : lines.find((l) => l > top);
    if (target === undefined) {
      if (direction > 0) term.scrollToBottom();
      return false;
    }
    term.scrollToLine(target);
    return true;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    for (const c of this.commands.splice(0)) c.decoration?.dispose();
    this.term = null;
  }
}
