'use client';
import { Plus } from 'lucide-react';
import { useState } from 'react';

/** A one-line "add" field: Enter adds (trimmed, non-empty) and clears. */
export function AddItemInput({
  placeholder,
  onAdd,
  testId,
  disabled = false,
}: {
  placeholder: string;
  onAdd: (text: string) => void;
  testId: string;
  disabled?: boolean;
}) {
  const [text, setText] = useState('');
  const submit = () => {
    const value = text.trim();
    if (!value) return;
    onAdd(value);
    setText('');
  };
  return (
    <form
      className="mt-1 flex items-center gap-1.5 rounded-md px-1 focus-within:bg-muted/60"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Plus aria-hidden className="size-4 shrink-0 text-muted-foreground" />
      <input
        dir="auto"
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        placeholder={placeholder}
        aria-label={placeholder}
        data-testid={testId}
        maxLength={10_000}
        className="h-8 flex-1 bg-transparent text-sm placeholder:text-muted-foreground focus:outline-none"
      />
    </form>
  );
}
