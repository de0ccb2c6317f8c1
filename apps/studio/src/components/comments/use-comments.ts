'use client';
import type { Comment, CreateComment, UpdateComment } from '@trellis/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { commentsApi } from '@/lib/api/comments';

/** The root of every comment list's query key: a family event about a comment re-reads them all. */
export const COMMENTS_KEY = 'comments';

/** A path's comments (its own and the inherited steps'), and the changes a person makes to them. */
export function useComments(threadId: string | null) {
  const queryClient = useQueryClient();
  const key = [COMMENTS_KEY, threadId] as const;
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => commentsApi.list(threadId!, signal),
    enabled: threadId !== null,
    select: (data) => data.comments,
  });
  const settle = () => queryClient.invalidateQueries({ queryKey: [COMMENTS_KEY] });
  const create = useMutation({
    mutationFn: (body: CreateComment) => commentsApi.create(threadId!, body),
    onSuccess: settle,
  });
  const update = useMutation({
    mutationFn: ({ commentId, body }: { commentId: string; body: UpdateComment }) => commentsApi.update(commentId, body),
    onSuccess: settle,
  });
  const remove = useMutation({
    mutationFn: (commentId: string) => commentsApi.remove(commentId),
    onSuccess: settle,
  });
  return { list, create, update, remove };
}

export type CommentsController = ReturnType<typeof useComments>;

/** The live passages of a list: what the editor highlights. */
export function openPassages(comments: readonly Comment[] | undefined): { id: string; start: number; end: number }[] {
  return (comments ?? []).flatMap((c) =>
    c.anchor.kind === 'passage' && !c.anchor.orphaned && !c.resolved && c.parent_id === null
      ? [{ id: c.comment_id, start: c.anchor.start, end: c.anchor.end }]
      : [],
  );
}
