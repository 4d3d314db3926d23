/**
 * Controls of a replay sandbox: previous / play-pause / next, jump with a
 * slider, and the speed. Playing writes each step's recorded output into the
 * replay terminal at the recorded timing while the selection (and with it
 * the tree and editor) follows the step; nothing is run again.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Step } from '../../src-worker/contract/api.js';
import { api } from '../store/apiHandle.js';
import { useApp } from '../store/index.js';
import { Player } from './player.js';
import { replayScreen } from './ReplayTerminal.js';

const SPEEDS = [0.5, 1, 2, 4, 10, 50];
/** Read by the player at every wait, so a new speed applies while playing. */
let playbackSpeed = 1;

export function ReplayBar(props: { sandboxId: string; steps: Step[] }) {
  const { sandboxId, steps } = props;
  const selected = useApp((s) => s.selectedStepId);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(playbackSpeed);
  const index = selected ? steps.findIndex((s) => s.id === selected) : -1;

  const player = useMemo(
    () =>
      new Player(steps, {
        frames: async (stepId) => {
          const rec = await api().getRecording({ sandboxId, stepId });
          replayScreen.begin(rec);
          return rec.frames;
        },
        enter: (stepId) => useApp.getState().selectStep(stepId),
        write: (data) => replayScreen.write(data),
        speed: () => playbackSpeed,
        stopped: () => {
          replayScreen.setPlaying(false);
          setPlaying(false);
        },
      }),
    [sandboxId, steps],
  );
  useEffect(() => () => player.pause(), [player]);

  const go = (i: number): void => {
    player.pause();
    const step = steps[Math.max(0, Math.min(steps.length - 1, i))];
    if (step) useApp.getState().selectStep(step.id);
  };

  const toggle = (): void => {
    if (player.playing) return player.pause();
    replayScreen.setPlaying(true);
    setPlaying(true);
    // From the selected step, or from the start when at the end or nothing is selected.
    player.play(index < 0 || index >= steps.length - 1 ? 0 : index);
  };

  return (
    <div className="replay-bar" role="toolbar" aria-label="Replay" data-playing={playing}>
      <span className="replay-flag" title="A loaded timeline: read-only; fork a step to continue">
        Replay
      </span>
      <button aria-label="Previous step" disabled={index <= 0} onClick={() => go(index - 1)}>
        ◀
      </button>
      <button aria-label={playing ? 'Pause' : 'Play'} className="primary" onClick={toggle}>
        {playing ? '❚❚' : '▶'}
      </button>
      <button
        aria-label="Next step"
        disabled={index >= steps.length - 1}
        onClick={() => go(index + 1)}
      >
        ▶▏
      </button>
      <input
        type="range"
        aria-label="Jump to step"
        min={0}
        max={Math.max(0, steps.length - 1)}
        value={Math.max(0, index)}
        onChange={(e) => go(Number(e.target.value))}
      />
      <span className="replay-position" data-testid="replay-position">
        {index + 1} / {steps.length}
      </span>
      <select
        aria-label="Speed"
        value={speed}
        onChange={(e) => {
          playbackSpeed = Number(e.target.value);
          setSpeed(playbackSpeed);
        }}
      >
        {SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s}×
          </option>
        ))}
      </select>
    </div>
  );
}
