/**
 * The branch graph: one row per step in time order, lanes drawn from the
 * parent links (lanes.ts), virtualized with @tanstack/react-virtual so only
 * the rows in view exist in the DOM. Click selects, Ctrl/Cmd-click picks a
 * second step and opens their diff; arrows move, Enter restores (after the
 * diff confirm), Escape clears. While steps arrive the list follows the head
 * until the user scrolls away; then "Jump to live" brings it back.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import type { Branch, Step } from '../../src-worker/contract/api.js';
import { useApp } from '../store/index.js';
import { filesChanged, formatDuration, networkCounts, statusClass, stepLabel } from './format.js';
import { LaneCell, laneColour } from './LaneCell.js';
import { layoutLanes, type LaneRow } from './lanes.js';

export const ROW_HEIGHT = 26;
const EMPTY: Step[] = [];
const NO_BRANCHES: Branch[] = [];

export function StepGraph() {
  const sandboxId = useApp((s) => s.currentId);
  const steps = useApp((s) => (s.currentId ? (s.steps[s.currentId] ?? EMPTY) : EMPTY));
  const branches = useApp((s) =>
    s.currentId ? (s.branches[s.currentId] ?? NO_BRANCHES) : NO_BRANCHES,
  );
  const head = useApp((s) => (s.currentId ? (s.heads[s.currentId] ?? null) : null));
  const selected = useApp((s) => s.selectedStepId);
  const compare = useApp((s) => s.compareStepId);
  const follow = useApp((s) => s.follow);
  const layout = useMemo(() => layoutLanes(steps), [steps]);
  const tips = useMemo(() => {
    const map = new Map<string, Branch[]>();
    for (const b of branches) {
      if (!b.headStepId) continue;
      map.set(b.headStepId, [...(map.get(b.headStepId) ?? []), b]);
    }
    return map;
  }, [branches]);
  const scroller = useRef<HTMLDivElement>(null);
  const programmatic = useRef(false);
  // The React Compiler skips this component for it; rows are plain elements, nothing memoized reads it.
  // eslint-disable-next-line react-hooks/incompatible-library -- see above
  const virtualizer = useVirtualizer({
    count: steps.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  const headIndex = head ? (layout.index.get(head) ?? -1) : -1;
  // Follow the head while steps arrive (and after a restore).
  useEffect(() => {
    if (!follow || headIndex < 0) return;
    programmatic.current = true;
    virtualizer.scrollToIndex(headIndex, { align: 'auto' });
    requestAnimationFrame(() => (programmatic.current = false));
  }, [follow, headIndex, steps.length, virtualizer]);

  // The selection stays in view when it moves by itself (replay playing, keyboard); if that
  // takes the head out of view, following stops as if the user had scrolled.
  const selectedIndex = selected ? (layout.index.get(selected) ?? -1) : -1;
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  const onScroll = (): void => {
    const el = scroller.current;
    if (!el || programmatic.current || headIndex < 0) return;
    const top = headIndex * ROW_HEIGHT;
    const inView = top >= el.scrollTop - ROW_HEIGHT && top < el.scrollTop + el.clientHeight;
    const app = useApp.getState();
    if (app.follow !== inView) app.setFollow(inView);
  };

  const moveTo = (index: number): void => {
    const step = steps[Math.max(0, Math.min(steps.length - 1, index))];
    if (!step) return;
    useApp.getState().selectStep(step.id);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const app = useApp.getState();
    const at = selected ? (layout.index.get(selected) ?? -1) : -1;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      moveTo(
        at < 0
          ? e.key === 'ArrowDown'
            ? 0
            : steps.length - 1
          : at + (e.key === 'ArrowDown' ? 1 : -1),
      );
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      moveTo(e.key === 'Home' ? 0 : steps.length - 1);
    } else if (e.key === 'Enter' && selected) {
      e.preventDefault();
      if (app.replay[sandboxId ?? ''] !== true) app.askRestore(selected);
    } else if (e.key === 'Escape' && selected) {
      e.preventDefault();
      e.stopPropagation();
      app.selectStep(null);
    }
  };

  return (
    <div className="graph-wrap">
      <div
        className="graph-scroll"
        ref={scroller}
        role="listbox"
        aria-label="Step graph"
        aria-activedescendant={selected ? `step-${selected}` : undefined}
        data-step-count={steps.length}
        tabIndex={0}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const step = steps[item.index];
            const row = layout.rows[item.index];
            if (!step || !row) return null;
            return (
              <GraphRow
                key={step.id}
                step={step}
                row={row}
                index={item.index}
                top={item.start}
                width={layout.width}
                head={step.id === head}
                selected={step.id === selected}
                compared={step.id === compare}
                labels={tips.get(step.id) ?? NO_BRANCHES}
                onClick={onRowClick}
                onRename={renameBranch}
              />
            );
          })}
        </div>
        {steps.length === 0 && (
          <div className="empty-hint">{sandboxId ? 'Commands you run appear here.' : ''}</div>
        )}
      </div>
      {!follow && headIndex >= 0 && (
        <button
          className="jump-live"
          onClick={() => {
            useApp.getState().setFollow(true);
            virtualizer.scrollToIndex(headIndex, { align: 'auto' });
          }}
        >
          Jump to live ↓
        </button>
      )}
    </div>
  );
}

function onRowClick(e: MouseEvent, step: Step): void {
  const app = useApp.getState();
  if ((e.ctrlKey || e.metaKey) && app.selectedStepId && app.selectedStepId !== step.id) {
    app.toggleCompareStep(step.id);
    if (useApp.getState().compareStepId === step.id)
      app.openDiff({
        kind: 'pair',
        from: app.selectedStepId,
        to: step.id,
        title: 'Changes between the two selected steps',
      });
    return;
  }
  app.selectStep(step.id);
}

async function renameBranch(branch: Branch): Promise<void> {
  const app = useApp.getState();
  const name = await app.askText(`Rename branch ${branch.name}`, branch.name);
  if (name !== null && name.trim() !== '' && name !== branch.name)
    await app.renameBranch(branch.id, name.trim());
}

/** One step's row; memoized so scrolling renders only the rows that come into view. */
const GraphRow = memo(function GraphRow(props: {
  step: Step;
  row: LaneRow;
  index: number;
  top: number;
  width: number;
  head: boolean;
  selected: boolean;
  compared: boolean;
  labels: Branch[];
  onClick(e: MouseEvent, step: Step): void;
  onRename(branch: Branch): Promise<void>;
}) {
  const { step, row, head, selected, compared } = props;
  const files = filesChanged(step);
  const net = networkCounts(step);
  return (
    <div
      id={`step-${step.id}`}
      role="option"
      aria-selected={selected}
      className={`graph-row ${statusClass(step)}${selected ? ' selected' : ''}${compared ? ' compared' : ''}${head ? ' head' : ''}${step.snapshotReleased ? ' released' : ''}`}
      style={{ transform: `translateY(${props.top}px)`, height: ROW_HEIGHT }}
      data-step-id={step.id}
      data-index={props.index}
      data-status={step.status ?? ''}
      onClick={(e) => props.onClick(e, step)}
    >
      <LaneCell
        row={row}
        width={props.width}
        height={ROW_HEIGHT}
        head={head}
        status={statusClass(step)}
      />
      {props.labels.map((b) => (
        <span
          key={b.id}
          className="branch-label"
          style={{ borderColor: laneColour(row.lane) }}
          title="Double-click to rename"
          data-branch-id={b.id}
          onDoubleClick={(e) => {
            e.stopPropagation();
            void props.onRename(b);
          }}
        >
          {b.name}
        </span>
      ))}
      <code
        className={`graph-command${step.kind === 'fork' ? ' fork-origin' : ''}`}
        title={step.command}
      >
        {stepLabel(step)}
      </code>
      {step.status !== null && step.status !== 0 && (
        <span className="badge fail" title="exit status">
          {step.status}
        </span>
      )}
      {files > 0 && (
        <span
          className="badge files"
          title={`${step.changes.added} added, ${step.changes.modified} modified, ${step.changes.deleted} deleted`}
        >
          {files} {files === 1 ? 'file' : 'files'}
        </span>
      )}
      {net.requests > 0 && (
        <span
          className={`badge net${net.denied > 0 ? ' denied' : ''}`}
          title={`${net.requests} network requests, ${net.denied} denied`}
        >
          ⇅ {net.requests}
        </span>
      )}
      {net.approvals > 0 && (
        <span className="badge approval" title={`${net.approvals} decided by a person`}>
          ✋ {net.approvals}
        </span>
      )}
      <span className="graph-duration">{formatDuration(step.durationMs)}</span>
    </div>
  );
});
