/** A `?next=` worth following after signing in: a path of this studio, never another site (`//host`, `/\\host`). */
export function safeNext(value: string | string[] | undefined): string {
  return typeof value === 'string' && /^\/[^/\\]/.test(value) ? value : '/';
}
