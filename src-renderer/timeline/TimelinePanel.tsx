/**
 * The timeline pane: the branch graph of the current sandbox, the selected
 * step's details, save and open of timeline files (button or drop), and the
 * replay controls when the sandbox replays a loaded file.
 */
import { useRef, useState, type DragEvent } from 'react';
import type { Step } from '../../src-worker/contract/api.js';
import { useApp } from '../store/index.js';
import { ReplayBar } from './ReplayBar.js';
import { StepDetails } from './StepDetails.js';
import { StepGraph } from './StepGraph.js';
import { openTimelineFile, saveTimeline, TIMELINE_EXTENSION } from './timelineFile.js';

const EMPTY: Step[] = [];

export function TimelinePanel() {
  const currentId = useApp((s) => s.currentId);
  const steps = useApp((s) => (s.currentId ? (s.steps[s.currentId] ?? EMPTY) : EMPTY));
  const replay = useApp((s) => (s.currentId ? s.replay[s.currentId] === true : false));
  const selectedId = useApp((s) => s.selectedStepId);
  const compareId = useApp((s) => s.compareStepId);
  const branchCount = useApp((s) => (s.currentId ? (s.branches[s.currentId]?.length ?? 0) : 0));
  const picker = useRef<HTMLInputElement>(null);
  const [dropping, setDropping] = useState(false);
  const selected = selectedId ? (steps.find((s) => s.id === selectedId) ?? null) : null;
  const other = compareId ? (steps.find((s) => s.id === compareId) ?? null) : null;

  const onDrop = (e: DragEvent): void => {
    e.preventDefault();
    setDropping(false);
    const file = e.dataTransfer.files[0];
    if (file) void openTimelineFile(file);
  };

  return (
    <section
      className={`pane timeline-pane${dropping ? ' drop-target' : ''}`}
      aria-label="Timeline"
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
    >
      <div className="pane-header">
        <span className="pane-title">Timeline</span>
        <span className="count" title={`${steps.length} steps on ${branchCount} branches`}>
          {steps.length}
        </span>
        <span className="spacer" />
        <button
          title="Save this sandbox’s timeline to a file"
          disabled={!currentId || steps.length === 0}
          onClick={() => void saveTimeline()}
        >
          Save
        </button>
        <button
          title="Open a timeline file to replay (or drop it here)"
          onClick={() => picker.current?.click()}
        >
          Open…
        </button>
        <input
          ref={picker}
          type="file"
          accept={`${TIMELINE_EXTENSION},.zip,application/zip`}
          hidden
          data-testid="timeline-file-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void openTimelineFile(file);
          }}
        />
      </div>
      {replay && currentId && <ReplayBar sandboxId={currentId} steps={steps} />}
      <StepGraph />
      {selected && <StepDetails step={selected} other={other} replay={replay} />}
    </section>
  );
}
