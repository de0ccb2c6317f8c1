// Prose shared by several route declarations.
export const TURN_EVENTS =
  'text/event-stream of events: `turn {turn_index, thread_id}` first, then `token {text}` and `tool {name, args, result}`, then `done {turn_index, message_id}` or `error {code, message}`.';
