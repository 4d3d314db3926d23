/** Modal overlays: text input dialog, help, and toasts. */
import { useEffect, useRef, useState } from 'react';
import { useApp } from '../store/index.js';
import type { TextDialog } from '../store/layoutSlice.js';
import { SHORTCUTS } from './shortcuts.js';

export function TextDialogView() {
  const dialog = useApp((s) => s.textDialog);
  // Keyed by the dialog object so each question starts from its own value.
  return dialog ? <TextDialogForm key={dialog.id} dialog={dialog} /> : null;
}

function TextDialogForm({ dialog }: { dialog: TextDialog }) {
  const [value, setValue] = useState(dialog.value);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  return (
    <div className="modal-backdrop" onMouseDown={() => dialog.resolve(null)}>
      <form
        className="modal"
        role="dialog"
        aria-label={dialog.title}
        onMouseDown={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault();
          dialog.resolve(value);
        }}
      >
        <label className="modal-title">
          {dialog.title}
          <input
            ref={input}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && dialog.resolve(null)}
          />
        </label>
        <div className="modal-actions">
          <button type="button" onClick={() => dialog.resolve(null)}>
            Cancel
          </button>
          <button type="submit" className="primary">
            OK
          </button>
        </div>
      </form>
    </div>
  );
}

export function HelpOverlay() {
  const open = useApp((s) => s.helpOpen);
  const setOpen = useApp((s) => s.setHelpOpen);
  if (!open) return null;
  return (
    <div className="modal-backdrop" onMouseDown={() => setOpen(false)}>
      <div
        className="modal help"
        role="dialog"
        aria-label="Keyboard shortcuts"
        onMouseDown={(e) => e.stopPropagation()}
      >
        <h2>Keyboard shortcuts</h2>
        <table>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.keys}>
                <td>
                  <kbd>{s.keys}</kbd>
                </td>
                <td>{s.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="modal-actions">
          <button className="primary" onClick={() => setOpen(false)} autoFocus>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}

export function Toasts() {
  const toasts = useApp((s) => s.toasts);
  const dismiss = useApp((s) => s.dismiss);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div
          key={t.id}
          className={`toast toast-${t.kind}`}
          role={t.kind === 'error' ? 'alert' : 'status'}
          onClick={() => dismiss(t.id)}
        >
          {t.text}
        </div>
      ))}
    </div>
  );
}
