/** A drag handle between two panes; reports the pointer delta while dragging. */
import { useEffect, useRef } from 'react';

export function Splitter(props: {
  direction: 'vertical' | 'horizontal';
  onDrag(delta: number): void;
  label: string;
}) {
  const onDrag = useRef(props.onDrag);
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => {
    onDrag.current = props.onDrag;
  }, [props.onDrag]);
  useEffect(() => () => stop.current?.(), []);

  const vertical = props.direction === 'vertical';
  return (
    <div
      className={`splitter splitter-${props.direction}`}
      role="separator"
      aria-label={props.label}
      aria-orientation={props.direction}
      onPointerDown={(e) => {
        e.preventDefault();
        let last = vertical ? e.clientX : e.clientY;
        // Window listeners keep the drag going when the pointer outruns the thin handle.
        const move = (ev: PointerEvent): void => {
          const pos = vertical ? ev.clientX : ev.clientY;
          const delta = pos - last;
          last = pos;
          if (delta !== 0) onDrag.current(delta);
        };
        const up = (): void => stop.current?.();
        stop.current = () => {
          window.removeEventListener('pointermove', move);
          window.removeEventListener('pointerup', up);
          document.body.classList.remove('resizing');
          stop.current = null;
        };
        window.addEventListener('pointermove', move);
        window.addEventListener('pointerup', up);
        document.body.classList.add('resizing');
      }}
    />
  );
}
