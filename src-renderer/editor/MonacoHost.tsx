/**
 * The one Monaco editor of the editor area, loaded lazily with Monaco
 * itself; its model follows the active text tab.
 */
import { useEffect, useRef } from 'react';
import { useColorScheme } from '../app/useColorScheme.js';
import type { EditorTab } from '../store/editorSlice.js';
import { modelOf, saveTab } from './documents.js';
import { monaco } from './monacoSetup.js';

/** One Monaco editor for all text tabs; hidden when the active tab is not text. */
export function MonacoHost({ tab }: { tab: EditorTab | null }) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const viewStates = useRef(new Map<string, monaco.editor.ICodeEditorViewState | null>());
  const current = useRef<string | null>(null);
  const scheme = useColorScheme();

  useEffect(() => {
    if (!host.current) return;
    const ed = monaco.editor.create(host.current, {
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      scrollBeyondLastLine: false,
      model: null,
    });
    ed.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => {
      if (current.current) void saveTab(current.current);
    });
    editor.current = ed;
    return () => {
      ed.dispose();
      editor.current = null;
    };
  }, []);

  useEffect(() => monaco.editor.setTheme(scheme === 'dark' ? 'vs-dark' : 'vs'), [scheme]);

  const key = tab?.key ?? null;
  const readOnly = tab?.readOnly ?? true;
  useEffect(() => {
    const ed = editor.current;
    if (!ed) return;
    if (current.current) viewStates.current.set(current.current, ed.saveViewState());
    current.current = key;
    const model = key ? modelOf(key) : null;
    ed.setModel(model);
    ed.updateOptions({ readOnly });
    if (key && model) {
      const state = viewStates.current.get(key);
      // Focus stays where the user is (tree, terminal): opening a file does not steal it.
      if (state) ed.restoreViewState(state);
    }
  }, [key, readOnly, tab?.kind]);

  return (
    <div
      ref={host}
      className="monaco-host"
      data-testid="monaco-host"
      style={{ display: key ? 'block' : 'none' }}
    />
  );
}
