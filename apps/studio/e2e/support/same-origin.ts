// Signed-in writes made from a page's session through `page.request`.
import type { APIResponse, Page } from '@playwright/test';

/**
 * A write (`POST`, `PATCH`, `DELETE`…) with `page`'s cookies, showing the page's origin. The studio's
 * same-origin check asks every cookie-authenticated write for its Origin; the studio's own fetches
 * send one, Playwright's request context does not. `page` must have opened a studio URL; a relative
 * `url` resolves against the context's baseURL.
 */
export function writeFromPage(
  page: Page,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  data?: unknown,
): Promise<APIResponse> {
  return page.request.fetch(url, { method, data, headers: { origin: new URL(page.url()).origin } });
}
