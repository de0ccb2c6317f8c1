// Authorship of the document's text: the body as spans, each naming who wrote it
// and the step and change it came from. Derived from the change log's document-body changes.
import type { ChangeActor, ChangeVia, DocumentBodyAfter } from '../changes/change';

/**
 * `agent_edited`: a unit (sentence, heading, list item, table cell — see `units.ts`) that the agent
 * wrote and a person then changed; the whole unit carries it (CoAuthor's user-and-model category).
 * `unknown`: text written before the change log existed (the `migration` change), or by the system.
 */
export type Author = 'person' | 'agent' | 'agent_edited' | 'unknown';

export const AUTHORS: readonly Author[] = ['person', 'agent', 'agent_edited', 'unknown'];

/**
 * One run of text with one origin. `start`/`end` are UTF-16 offsets into the document body; spans are
 * in order, cover the body exactly, never overlap, and two adjacent spans never share an origin.
 * `turn`/`seq` name the step and change the text came from (for applied text: its original step and
 * change on the source thread, `thread_id`, when the apply carried them). `via: 'apply'` and `source`
 * (the apply's source node, `"{thread_id}:{turn}"`) mark text brought by an apply; `via: 'cite'` and
 * `source` mark text the agent copied from a step of another path it read (`read_path`).
 */
export interface AuthorshipSpan {
  start: number;
  end: number;
  author: Author;
  turn: number | null;
  seq: number | null;
  via?: 'apply' | 'cite';
  source?: string;
  thread_id?: string;
  /** On a person's text (and agent text a person edited): who — the change's `actor_id`, when the log names one. */
  user_id?: string;
}

/** One document-body change as the log stores it (only the fields authorship reads). */
export interface DocumentBodyChange {
  seq: number;
  turn: number;
  actor: ChangeActor;
  /** The person behind a `person` change (the log's `actor_id`); absent where it was not read. */
  actor_id?: string | null;
  via: ChangeVia;
  via_source?: string | null;
  after: DocumentBodyAfter;
}

/** The body at one version and its spans: what the cache stores and the incremental step advances. */
export interface AuthorshipState {
  version: number;
  text: string;
  spans: AuthorshipSpan[];
}

export interface AuthorshipSummary {
  person_words: number;
  agent_words: number;
  agent_edited_words: number;
  unknown_words: number;
}

export function isAuthor(value: unknown): value is Author {
  return typeof value === 'string' && (AUTHORS as readonly string[]).includes(value);
}
