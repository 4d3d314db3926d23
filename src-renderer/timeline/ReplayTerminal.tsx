/**
 * The terminal of a replay sandbox: an xterm with no shell behind it. It
 * shows the selected step as recorded (the screen before it, then its
 * output); while the replay plays, the player writes the frames itself.
 */
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef } from 'react';
import type { StepRecording } from '../../src-worker/contract/api.js';
import { useColorScheme } from '../app/useColorScheme.js';
import { api } from '../store/apiHandle.js';
import { TERMINAL_THEMES } from '../terminal/XtermView.js';
import { useApp } from '../store/index.js';
import { describeError } from '../store/notifySlice.js';

let current: Terminal | null = null;
/** True while the player writes: selection changes then come from it. */
let playing = false;

export const replayScreen = {
  setPlaying(on: boolean): void {
    playing = on;
  },
  /** Clears the terminal and paints what it showed before a step. */
  begin(recording: StepRecording): void {
    current?.reset();
    current?.write(recording.screen);
  },
  write(data: string): void {
    current?.write(data);
  },
};

async function showStep(sandboxId: string, stepId: string): Promise<void> {
  try {
    const rec = await api().getRecording({ sandboxId, stepId });
    if (playing || useApp.getState().selectedStepId !== stepId) return;
    replayScreen.begin(rec);
    for (const frame of rec.frames) current?.write(frame.data);
  } catch (err) {
    current?.reset();
    current?.write(`\x1b[2m[no recording: ${describeError(err)}]\x1b[0m\r\n`);
  }
}

export function ReplayTerminal(props: { sandboxId: string }) {
  const host = useRef<HTMLDivElement>(null);
  const selected = useApp((s) => s.selectedStepId);
  const scheme = useColorScheme();
  const { sandboxId } = props;

  useEffect(() => {
    if (!host.current) return;
    const term = new Terminal({
      fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
      fontSize: 13,
      scrollback: 10_000,
      disableStdin: true,
      cursorBlink: false,
      theme: window.matchMedia('(prefers-color-scheme: dark)').matches
        ? TERMINAL_THEMES.dark
        : TERMINAL_THEMES.light,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(host.current);
    current = term;
    const refit = (): void => {
      try {
        fit.fit();
      } catch {
        // Not measurable while hidden.
      }
    };
    const observer = new ResizeObserver(refit);
    observer.observe(host.current);
    refit();
    return () => {
      observer.disconnect();
      if (current === term) current = null;
      term.dispose();
    };
  }, [sandboxId]);

  useEffect(() => {
    if (current) current.options.theme = TERMINAL_THEMES[scheme];
  }, [scheme]);

  useEffect(() => {
    if (selected && !playing) void showStep(sandboxId, selected);
  }, [sandboxId, selected]);

  return (
    <div
      ref={host}
      className="xterm-host replay-terminal"
      data-testid="replay-terminal"
      aria-label="Recorded terminal"
    />
  );
}
