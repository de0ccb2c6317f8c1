'use client';
import { markdown } from '@codemirror/lang-markdown';
import CodeMirror, { EditorView, type Extension } from '@uiw/react-codemirror';
import { useMemo } from 'react';

// Module-level so CodeMirror does not reconfigure on every render.
const extensions = [
  markdown(),
  EditorView.lineWrapping,
  EditorView.contentAttributes.of({ 'aria-label': 'Document (markdown)' }),
  EditorView.theme({
    '&': { fontSize: '13.5px', backgroundColor: 'transparent' },
    '&.cm-focused': { outline: 'none' },
    '.cm-content': { fontFamily: 'var(--font-mono)', padding: '10px 0', caretColor: 'var(--foreground)' },
    '.cm-line': { padding: '0 12px' },
    '.cm-placeholder': { color: 'var(--muted-foreground)' },
  }),
];

const setup = {
  lineNumbers: false,
  foldGutter: false,
  highlightActiveLine: false,
  highlightActiveLineGutter: false,
  autocompletion: false,
} as const;

export interface MarkdownEditorProps {
  value: string;
  onChange?: (value: string) => void;
  onBlur?: () => void;
  /** Added after the base extensions (the authorship overlay); keep it stable between renders. */
  overlay?: Extension | null;
  /** A live document's collaboration (the editor then moves by its updates, `value` only starts it). */
  collab?: Extension | null;
  onCreateEditor?: (view: EditorView) => void;
}

/** CodeMirror 6 with markdown highlighting; loaded only in the browser (see document-section). */
export default function MarkdownEditor({
  value,
  onChange,
  onBlur,
  overlay,
  collab,
  onCreateEditor,
}: MarkdownEditorProps) {
  const withOverlay = useMemo(
    () => [...extensions, ...(collab ? [collab] : []), ...(overlay ? [overlay] : [])],
    [overlay, collab],
  );
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      onCreateEditor={onCreateEditor}
      extensions={withOverlay}
      basicSetup={setup}
      indentWithTab={false}
      placeholder="Write the document in markdown, or ask the agent with “doc:”…"
      minHeight="240px"
      theme="light"
    />
  );
}
