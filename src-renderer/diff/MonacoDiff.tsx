/** Monaco's side-by-side diff editor over two texts, read-only. */
import { useEffect, useRef } from 'react';
import { useColorScheme } from '../app/useColorScheme.js';
import { languageFor, monaco } from '../editor/monacoSetup.js';

export function MonacoDiff(props: { path: string; before: string; after: string }) {
  const host = useRef<HTMLDivElement>(null);
  const scheme = useColorScheme();
  const { path, before, after } = props;

  useEffect(() => {
    if (!host.current) return;
    const language = languageFor(path);
    const original = monaco.editor.createModel(before, language);
    const modified = monaco.editor.createModel(after, language);
    const editor = monaco.editor.createDiffEditor(host.current, {
      readOnly: true,
      originalEditable: false,
      automaticLayout: true,
      renderSideBySide: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
    });
    editor.setModel({ original, modified });
    return () => {
      editor.dispose();
      original.dispose();
      modified.dispose();
    };
  }, [path, before, after]);

  useEffect(() => {
    monaco.editor.setTheme(scheme === 'dark' ? 'vs-dark' : 'vs');
  }, [scheme]);

  return <div ref={host} className="monaco-diff-host" data-testid="monaco-diff" />;
}
