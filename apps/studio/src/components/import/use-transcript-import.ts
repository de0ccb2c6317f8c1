'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { MAX_TRANSCRIPT_BYTES, type TranscriptInspection } from '@trellis/domain';
import { ApiError } from '@/lib/api/http';
import { queryKeys } from '@/lib/api/query-keys';
import { landingThreadId, transcriptsApi } from './transcripts-api';

export interface ChosenFile {
  name: string;
  size: number;
  /** The text of a `.jsonl` file; empty for a zip. */
  content: string;
  /** A zipped project folder's bytes (sent as they are, read as one family). */
  zip?: Uint8Array;
}

/** A zip by its name or type; the server checks the bytes. */
function isZip(file: File): boolean {
  return /\.zip$/i.test(file.name) || file.type === 'application/zip' || file.type === 'application/x-zip-compressed';
}

export type ImportMode = ({ kind: 'family' } | { kind: 'separate'; leafUuids: string[] }) & {
  /** Import even though this file was imported before (the server answered 409 already_imported). */
  again?: boolean;
};

/**
 * The page's flow: a chosen file is read and inspected at once; importing posts the same text
 * again (the server keeps nothing between the two) and opens the imported conversation.
 */
export function useTranscriptImport() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [readError, setReadError] = useState<unknown>(null);
  const [readingName, setReadingName] = useState<string | null>(null);
  const attempt = useRef(0);

  const inspect = useMutation({
    mutationFn: (chosen: ChosenFile): Promise<TranscriptInspection> =>
      chosen.zip
        ? transcriptsApi.inspectProject(chosen.zip, chosen.name)
        : transcriptsApi.inspect({ content: chosen.content, filename: chosen.name }),
  });

  const importing = useMutation({
    mutationFn: (input: { file: ChosenFile; mode: ImportMode }) =>
      input.file.zip
        ? transcriptsApi.importProject(input.file.zip, input.file.name, input.mode.again === true)
        : transcriptsApi.import({
            content: input.file.content,
            filename: input.file.name,
            ...(input.mode.kind === 'separate' && { leaf_uuids: input.mode.leafUuids }),
            ...(input.mode.again === true && { again: true }),
          }),
    onSuccess: async (imported) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.conversationList() });
      const threadId = landingThreadId(imported);
      if (threadId) router.push(`/c/${encodeURIComponent(threadId)}`);
    },
  });

  const choose = async (chosen: File) => {
    const current = ++attempt.current;
    inspect.reset();
    importing.reset();
    setReadError(null);
    setFile(null);
    if (chosen.size > MAX_TRANSCRIPT_BYTES) {
      setReadError(
        new ApiError(413, 'payload_too_large', `${chosen.name} is ${(chosen.size / (1024 * 1024)).toFixed(1)} MB; transcripts may be at most ${MAX_TRANSCRIPT_BYTES / (1024 * 1024)} MB`),
      );
      return;
    }
    let content = '';
    let zip: Uint8Array | undefined;
    setReadingName(chosen.name);
    try {
      if (isZip(chosen)) zip = new Uint8Array(await chosen.arrayBuffer());
      else content = await chosen.text();
    } catch {
      setReadError(new ApiError(0, 'bad_request', `${chosen.name} could not be read by the browser`));
      return;
    } finally {
      if (current === attempt.current) setReadingName(null);
    }
    if (current !== attempt.current) return;
    const next = { name: chosen.name, size: chosen.size, content, ...(zip && { zip }) };
    setFile(next);
    inspect.mutate(next);
  };

  return {
    file,
    choose,
    readError,
    inspection: inspect.data,
    /** The file being read or inspected, while that lasts. */
    busyName: readingName ?? (inspect.isPending ? (file?.name ?? null) : null),
    inspectError: inspect.error,
    startImport: (mode: ImportMode) => {
      if (file) importing.mutate({ file, mode });
    },
    isImporting: importing.isPending || importing.isSuccess,
    importError: importing.error,
  };
}
