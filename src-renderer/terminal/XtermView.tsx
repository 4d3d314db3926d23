/**
 * One terminal tab: an xterm.js view attached to a kernel terminal session.
 * Bytes flow engine → terminalBus → xterm and xterm → terminalWrite, never
 * through the store. Resizes propagate; Ctrl-C copies when text is selected
 * and interrupts otherwise.
 */
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef } from 'react';
import { useColorScheme } from '../app/useColorScheme.js';
import { api } from '../store/apiHandle.js';
import { describeError } from '../store/notifySlice.js';
import { useApp } from '../store/index.js';
import { ShellIntegrationAddon } from './shellIntegration.js';
import { subscribeTerminal } from './terminalBus.js';

/** Terminal colours per scheme (the replay terminal uses them too). */
export const TERMINAL_THEMES = {
  dark: {
    background: '#1e1e1e',
    foreground: '#d4d4d4',
    cursor: '#d4d4d4',
    selectionBackground: '#264f78',
  },
  light: {
    background: '#ffffff',
    foreground: '#1f2328',
    cursor: '#1f2328',
    selectionBackground: '#add6ff',
  },
};
const { dark: DARK, light: LIGHT } = TERMINAL_THEMES;

/** Terminals register here so shortcuts (focus, jump) reach the active one. */
export const terminalViews = new Map<string, { term: Terminal; shell: ShellIntegrationAddon }>();

export function XtermView(props: {
  tabKey: string;
  sandboxId: string;
  visible: boolean;
  onExit(status: number): void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal | null>(null);
  const fitRef = useRef<FitAddon | null>(null);
  const scheme = useColorScheme();
  const { tabKey, sandboxId, onExit } = props;

  useEffect(() => {
    if (!host.current) return;
    const term = new Terminal({
      fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
      fontSize: 13,
      cursorBlink: true,
      scrollback: 10_000,
      allowProposedApi: true,
      theme: window.matchMedia('(prefers-color-scheme: dark)').matches ? DARK : LIGHT,
    });
    const fit = new FitAddon();
    const shell = new ShellIntegrationAddon();
    term.loadAddon(fit);
    term.loadAddon(shell);
    term.open(host.current);
    termRef.current = term;
    fitRef.current = fit;
    terminalViews.set(tabKey, { term, shell });
    try {
      fit.fit();
    } catch {
      // Hidden at mount: fitted when shown.
    }

    let terminalId: string | null = null;
    let disposed = false;
    let unsubscribe = (): void => undefined;
    const disposables = [
      term.onData((data) => {
        if (terminalId)
          void api()
            .terminalWrite({ terminalId, data })
            .catch(() => undefined);
      }),
      term.onResize(({ cols, rows }) => {
        if (terminalId)
          void api()
            .terminalResize({ terminalId, cols, rows })
            .catch(() => undefined);
      }),
    ];

    term.attachCustomKeyEventHandler((e) => {
      if (e.type !== 'keydown') return true;
      const key = e.key.toLowerCase();
      if (e.ctrlKey && !e.shiftKey && !e.altKey && key === 'c' && term.hasSelection()) {
        void navigator.clipboard?.writeText(term.getSelection()).catch(() => undefined);
        term.clearSelection();
        return false;
      }
      if (e.ctrlKey && e.shiftKey && key === 'c') {
        if (term.hasSelection())
          void navigator.clipboard?.writeText(term.getSelection()).catch(() => undefined);
        return false;
      }
      // Let the browser deliver a paste event; xterm turns it into input.
      if (e.ctrlKey && (key === 'v' || (e.shiftKey && key === 'v'))) return false;
      if (e.ctrlKey && !e.shiftKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
        shell.jump(e.key === 'ArrowUp' ? -1 : 1);
        return false;
      }
      // Leave app-level shortcuts (Alt+digit/letters, F1) to the window.
      if (e.altKey && !e.ctrlKey && /^(Digit[1-3]|KeyT|KeyN|KeyW|KeyR)$/.test(e.code)) return false;
      if (e.key === 'F1') return false;
      return true;
    });

    void api()
      .openTerminal({ sandboxId, cols: term.cols, rows: term.rows })
      .then(({ terminalId: id }) => {
        if (disposed) {
          void api()
            .closeTerminal({ terminalId: id })
            .catch(() => undefined);
          return;
        }
        terminalId = id;
        useApp.getState().bindTerminal(tabKey, id);
        host.current?.setAttribute('data-terminal-id', id);
        unsubscribe = subscribeTerminal(
          id,
          (data) => term.write(data),
          (status) => {
            term.write(`\r\n\x1b[2m[shell exited with status ${status}]\x1b[0m\r\n`);
            terminalId = null;
            onExit(status);
          },
        );
        // The size may have changed while the session was starting.
        void api()
          .terminalResize({ terminalId: id, cols: term.cols, rows: term.rows })
          .catch(() => undefined);
      })
      .catch((err: unknown) => {
        term.write(`\x1b[31mTerminal unavailable: ${describeError(err)}\x1b[0m\r\n`);
        host.current?.setAttribute('data-terminal-error', describeError(err));
      });

    return () => {
      disposed = true;
      unsubscribe();
      for (const d of disposables) d.dispose();
      if (terminalId)
        void api()
          .closeTerminal({ terminalId })
          .catch(() => undefined);
      terminalViews.delete(tabKey);
      term.dispose();
      termRef.current = null;
    };
  }, [tabKey, sandboxId, onExit]);

  useEffect(() => {
    if (termRef.current) termRef.current.options.theme = scheme === 'dark' ? DARK : LIGHT;
  }, [scheme]);

  useEffect(() => {
    const el = host.current;
    if (!el || !props.visible) return;
    const refit = (): void => {
      try {
        if (el.clientWidth > 0 && el.clientHeight > 0) fitRef.current?.fit();
      } catch {
        // Not measurable right now.
      }
    };
    const observer = new ResizeObserver(refit);
    observer.observe(el);
    refit();
    termRef.current?.focus();
    return () => observer.disconnect();
  }, [props.visible]);

  return (
    <div
      ref={host}
      className="xterm-host"
      data-testid="terminal"
      data-tab={tabKey}
      style={{ display: props.visible ? 'block' : 'none' }}
    />
  );
}
