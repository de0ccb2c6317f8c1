import { CommentListSchema, CommentSchema, type Comment, type CommentList, type CreateComment, type UpdateComment } from '@trellis/domain';
import { apiCall, apiJson } from './http';
import { apiPaths } from './paths';

export const commentsApi = {
  list(threadId: string, signal?: AbortSignal): Promise<CommentList> {
    return apiJson(CommentListSchema, `${apiPaths.conversation(threadId)}/comments`, { signal });
  },
  create(threadId: string, body: CreateComment): Promise<Comment> {
    return apiJson(CommentSchema, `${apiPaths.conversation(threadId)}/comments`, { method: 'POST', body });
  },
  update(commentId: string, body: UpdateComment): Promise<Comment> {
    return apiJson(CommentSchema, `/api/comments/${encodeURIComponent(commentId)}`, { method: 'PATCH', body });
  },
  remove(commentId: string): Promise<void> {
    return apiCall(`/api/comments/${encodeURIComponent(commentId)}`, { method: 'DELETE' });
  },
};
