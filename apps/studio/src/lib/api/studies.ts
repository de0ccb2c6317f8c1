import {
  ParticipantViewSchema,
  StudyCompletionSchema,
  StudyCreatedSchema,
  StudyJoinedSchema,
  StudyListSchema,
  StudyParticipantListSchema,
  StudySchema,
  type CreateStudy,
  type JoinStudy,
  type ParticipantView,
  type Study,
  type StudyCompletion,
  type StudyCreated,
  type StudyJoined,
  type StudyList,
  type StudyParticipantList,
  type UpdateStudy,
} from '@trellis/domain';
import { apiCall, apiJson } from './http';

const study = (id: string) => `/api/studies/${encodeURIComponent(id)}`;
const join = (slug: string) => `/api/join/${encodeURIComponent(slug)}`;

export const studyKeys = {
  list: () => ['studies'] as const,
  study: (id: string) => ['studies', id] as const,
  participants: (id: string) => ['studies', id, 'participants'] as const,
  me: (slug: string) => ['join', slug, 'me'] as const,
};

/** The researcher's side (docs/studies.md): their studies, one study's participants, withdrawal. */
export const studiesApi = {
  list(signal?: AbortSignal): Promise<StudyList> {
    return apiJson(StudyListSchema, '/api/studies', { signal });
  },
  create(body: CreateStudy): Promise<StudyCreated> {
    return apiJson(StudyCreatedSchema, '/api/studies', { method: 'POST', body });
  },
  get(id: string, signal?: AbortSignal): Promise<Study> {
    return apiJson(StudySchema, study(id), { signal });
  },
  update(id: string, body: UpdateStudy): Promise<Study> {
    return apiJson(StudySchema, study(id), { method: 'PATCH', body });
  },
  participants(id: string, signal?: AbortSignal): Promise<StudyParticipantList> {
    return apiJson(StudyParticipantListSchema, `${study(id)}/participants`, { signal });
  },
  withdraw(id: string, participantId: string): Promise<void> {
    return apiCall(`${study(id)}/participants/${encodeURIComponent(participantId)}`, { method: 'DELETE' });
  },
  datasetUrl(id: string): string {
    return `${study(id)}/export?format=dataset`;
  },
};

/** The participant's side: consent, their own view, Finish. */
export const joinApi = {
  join(slug: string, body: JoinStudy): Promise<StudyJoined> {
    return apiJson(StudyJoinedSchema, join(slug), { method: 'POST', body });
  },
  me(slug: string, signal?: AbortSignal): Promise<ParticipantView> {
    return apiJson(ParticipantViewSchema, `${join(slug)}/me`, { signal });
  },
  finish(slug: string): Promise<StudyCompletion> {
    return apiJson(StudyCompletionSchema, `${join(slug)}/finish`, { method: 'POST' });
  },
};
