// Prose shared by several route declarations.
export const FAMILY_EVENTS =
  'text/event-stream of the family\'s events, each `id: <event id>`, `event: <kind>`, `data: {id, family_id, thread_id, kind, data, created_at}`. Kinds: `turn_started {turn_index, by, message_preview}`, `turn_finished {turn_index, status (complete|interrupted|failed|stopped), reason, message_id}`, `stop_requested {turn_index}`, `workspace_changed`, `branch_created {parent_thread_id, branch_point_turn, reason}`, `thread_updated {title?, is_starred?, is_archived?}`, `apply {turn_index, source_node_id}`, `deleted`. Reconnect with the `Last-Event-ID` header (or `?last_event_id=`) to receive the events missed since, in order. A `: keep-alive` comment comes every 15 s; the stream ends when the session or token is revoked, or when the client falls too far behind (reconnect to catch up).';

export const TURN_EVENTS =
  'text/event-stream of events: `turn {turn_index, thread_id}` first, then `token {text}` and `tool {name, args, result}`, then `done {turn_index, message_id}` or `error {code, message}`.';
