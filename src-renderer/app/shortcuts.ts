/** Keyboard shortcuts of the main actions, and the table the help overlay lists. */
export interface Shortcut {
  keys: string;
  action: string;
}

const mac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
export const MOD = mac ? '⌘' : 'Ctrl';

export const SHORTCUTS: Shortcut[] = [
  { keys: `${MOD}+S`, action: 'Save the active editor tab' },
  { keys: 'Alt+T', action: 'New terminal tab' },
  { keys: 'Alt+N', action: 'New file in the selected folder' },
  { keys: 'Alt+Shift+N', action: 'New folder in the selected folder' },
  { keys: 'Alt+W', action: 'Close the active editor tab' },
  { keys: 'F2', action: 'Rename the selected file (tree focused)' },
  { keys: 'Delete', action: 'Delete the selected file (tree focused)' },
  { keys: 'Alt+1 / Alt+2 / Alt+3', action: 'Focus file tree / editor / terminal' },
  { keys: 'Ctrl+↑ / Ctrl+↓', action: 'Jump to previous / next command in the terminal' },
  { keys: 'Ctrl+C', action: 'Interrupt (copies instead when text is selected)' },
  { keys: 'Ctrl+Shift+C / Ctrl+Shift+V', action: 'Copy / paste in the terminal' },
  { keys: '↑ / ↓ (timeline focused)', action: 'Select the previous / next step' },
  { keys: `${MOD}+click a step`, action: 'Diff the selected step with this one' },
  { keys: 'Enter or Alt+R', action: 'Continue from the selected step (shows the diff first)' },
  { keys: 'Escape', action: 'Clear the step selection (back to live), close dialogs' },
  { keys: 'F1 or ?', action: 'Show this help' },
];

/** True when an event matches e.g. "Alt+T" or "Mod+S" (Mod = Ctrl, or Cmd on macOS). */
export function matches(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'code'>,
  combo: string,
): boolean {
  const parts = combo.split('+');
  const key = parts.pop() ?? '';
  const want = new Set(parts);
  const mod = mac ? e.metaKey : e.ctrlKey;
  if (want.has('Mod') !== mod) return false;
  if (!want.has('Mod') && (e.ctrlKey || e.metaKey)) return false;
  if (want.has('Alt') !== e.altKey) return false;
  if (want.has('Shift') !== e.shiftKey) return false;
  // With Alt held, e.key may be a composed character: compare the physical key too.
  if (key.length === 1)
    return (
      e.key.toLowerCase() === key.toLowerCase() ||
      e.code === `Key${key.toUpperCase()}` ||
      e.code === `Digit${key}`
    );
  return e.key === key;
}
