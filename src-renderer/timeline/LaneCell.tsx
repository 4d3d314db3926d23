/** The graph column of one row: lane lines passing through, the step's dot, branch curves. */
import { memo } from 'react';
import type { LaneRow } from './lanes.js';

export const LANE_WIDTH = 14;
const COLOURS = ['#0969da', '#8250df', '#1a7f37', '#bf3989', '#9a6700', '#0a7b83', '#cf222e'];

export function laneColour(lane: number): string {
  return COLOURS[lane % COLOURS.length] ?? '#0969da';
}

const x = (lane: number): number => lane * LANE_WIDTH + LANE_WIDTH / 2;

export const LaneCell = memo(function LaneCell(props: {
  row: LaneRow;
  width: number;
  height: number;
  head: boolean;
  status: 'ok' | 'fail' | 'none';
}) {
  const { row, width, height: h, head, status } = props;
  const mid = h / 2;
  const cx = x(row.lane);
  const colour = laneColour(row.lane);
  return (
    <svg
      className="lane-cell"
      width={width * LANE_WIDTH}
      height={h}
      aria-hidden="true"
      data-lane={row.lane}
    >
      {row.through.map((k) => (
        <line key={k} x1={x(k)} y1={0} x2={x(k)} y2={h} stroke={laneColour(k)} strokeWidth={2} />
      ))}
      {row.fromAbove && <line x1={cx} y1={0} x2={cx} y2={mid} stroke={colour} strokeWidth={2} />}
      {row.toBelow && <line x1={cx} y1={mid} x2={cx} y2={h} stroke={colour} strokeWidth={2} />}
      {row.branchesTo.map((k) => (
        <path
          key={k}
          d={`M${cx} ${mid} C${cx} ${h} ${x(k)} ${mid} ${x(k)} ${h}`}
          fill="none"
          stroke={laneColour(k)}
          strokeWidth={2}
        />
      ))}
      {head && <circle cx={cx} cy={mid} r={7} fill="none" stroke={colour} strokeWidth={2} />}
      <circle
        className={`dot ${status}`}
        cx={cx}
        cy={mid}
        r={4.5}
        fill={status === 'fail' ? 'var(--fail)' : colour}
      />
    </svg>
  );
});
