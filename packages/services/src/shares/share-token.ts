/** Where a link's reader lands. */
export function shareUrl(token: string): string {
  return `/s/${token}`;
}
