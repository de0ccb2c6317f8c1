// Every API route of the studio, read from the app folder, so the auth matrix
// covers routes added later without editing the test.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const API_DIR = path.resolve(import.meta.dirname, '../../src/app/api');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export interface ApiRoute {
  path: string;
  /** The OpenAPI path: folder names in braces (`[tid]` → `{tid}`). */
  template: string;
  method: (typeof METHODS)[number];
}

const SAMPLE_PARAMS: Record<string, string> = {
  id: 'th_0123456789abcdef0123456789abcdef',
  pid: '00000000-0000-0000-0000-000000000000',
  tid: '00000000-0000-0000-0000-000000000000',
  k: '1',
};

export function listApiRoutes(): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full, [...segments, entry]);
      else if (entry === 'route.ts') {
        const source = readFileSync(full, 'utf8');
        const urlPath =
          '/api/' +
          segments
            .map((s) => {
              const m = /^\[(?:\.\.\.)?(\w+)\]$/.exec(s);
              return m ? (SAMPLE_PARAMS[m[1]!] ?? 'x') : s;
            })
            .join('/');
        const template = '/api/' + segments.map((s) => s.replace(/^\[(?:\.\.\.)?(\w+)\]$/, '{$1}')).join('/');
        for (const method of METHODS) {
          if (new RegExp(`export (const|async function) ${method}\\b`).test(source)) routes.push({ path: urlPath, template, method });
        }
      }
    }
  };
  walk(API_DIR, []);
  return routes;
}

/**
 * Routes anyone may call: health, the auth routes, the API description, the JSON 404 of unknown
 * paths, and a share link's reader (all but "continue in my account", which needs an account).
 */
export function isPublicRoute(route: ApiRoute): boolean {
  const isSharedReader = route.template.startsWith('/api/shared/') && !route.template.endsWith('/copy');
  // Joining a study needs no account (it makes the participant's session); Finish needs that session.
  const isStudyJoin = route.template === '/api/join/{slug}';
  return route.template === '/api/{unknown}' || isSharedReader || isStudyJoin || route.path === '/api/health' || route.path.startsWith('/api/auth/') || route.path.startsWith('/api/openapi') || route.path.startsWith('/api/docs');
}
