// Compares an OpenAPI document with what the studio really serves: the route
// folders under app/api (paths, parameter names, exported methods) and the
// contracts their handlers carry (body, errors). Every difference is one line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { HTTP_METHODS, impliedErrors, type HttpMethod, type RouteContract } from '../define-route';
import { errorResponses, schemaOf, type OpenApiDocument } from './document';

export interface FolderRoute {
  method: HttpMethod;
  /** `/api/conversations/{id}/todos/{tid}`: folder names, brackets become braces. */
  path: string;
  params: string[];
  /** The `route.ts` file that serves it. */
  file: string;
}

/** Every exported method of every `route.ts` under `apiDir`. */
export function scanRouteFolders(apiDir: string): FolderRoute[] {
  const routes: FolderRoute[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full, [...segments, entry]);
      else if (entry === 'route.ts') {
        const source = readFileSync(full, 'utf8');
        const params: string[] = [];
        const urlPath =
          '/api/' +
          segments
            .map((s) => {
              const m = /^\[(?:\.\.\.)?(\w+)\]$/.exec(s);
              if (!m) return s;
              params.push(m[1]!);
              return `{${m[1]!}}`;
            })
            .join('/');
        for (const method of HTTP_METHODS) {
          if (new RegExp(`export (const|async function) ${method}\\b`).test(source)) routes.push({ method, path: urlPath.replace(/\/$/, ''), params, file: full });
        }
      }
    }
  };
  walk(apiDir, []);
  return routes;
}

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, unknown>;
}

/** Differences between the document and the folders + handler contracts; empty when they agree. */
export function coverageProblems(doc: Pick<OpenApiDocument, 'paths'>, folders: FolderRoute[], contracts: RouteContract[]): string[] {
  const problems: string[] = [];
  const paths = doc.paths as unknown as Record<string, Record<string, Operation>>;
  const seen = new Set<string>();
  for (const folder of folders) {
    const key = `${folder.method} ${folder.path}`;
    seen.add(key);
    const op = paths[folder.path]?.[folder.method.toLowerCase()];
    const fallback = contracts.find((c) => c.method === folder.method && c.path === folder.path && c.isFallback);
    if (fallback) {
      // The JSON 404 for unclaimed paths is served but never documented as an operation.
      if (op) problems.push(`${key}: the fallback for unclaimed paths is in the document`);
      continue;
    }
    if (!op) {
      problems.push(`${key}: served by a route folder but not in the document`);
      continue;
    }
    const documented = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
    if (!isDeepStrictEqual(documented, folder.params)) {
      problems.push(`${key}: path parameters ${JSON.stringify(documented)} in the document, ${JSON.stringify(folder.params)} in the folders`);
    }
    const contract = contracts.find((c) => c.method === folder.method && c.path === folder.path);
    if (!contract) {
      problems.push(`${key}: no handler declares this method and path`);
      continue;
    }
    const declaredParams = Object.keys(contract.params ?? {});
    if (!isDeepStrictEqual(declaredParams, folder.params)) {
      problems.push(`${key}: the handler declares parameters ${JSON.stringify(declaredParams)}, the folders name ${JSON.stringify(folder.params)}`);
    }
    const body = contract.body ? schemaOf(contract.body as z.ZodType, 'input') : undefined;
    if (!isDeepStrictEqual(op.requestBody?.content['application/json']?.schema, body)) {
      problems.push(`${key}: the documented body differs from the handler's`);
    }
    const documentedErrors = Object.fromEntries(Object.entries(op.responses).filter(([status]) => Number(status) >= 400));
    if (!isDeepStrictEqual(documentedErrors, errorResponses(contract.errors))) {
      problems.push(`${key}: the documented errors differ from the handler's (${contract.errors.join(', ')})`);
    }
    if (isThreadScoped(contract.path) && contract.access === undefined) {
      problems.push(`${key}: a thread-scoped route must declare the access it needs (read, comment, edit or own)`);
    }
    const missing = impliedErrors(contract).filter((code) => !contract.errors.includes(code));
    if (missing.length > 0) problems.push(`${key}: answers ${missing.join(', ')} but does not declare it`);
  }
  for (const [p, methods] of Object.entries(paths)) {
    for (const method of Object.keys(methods)) {
      const key = `${method.toUpperCase()} ${p}`;
      if (!seen.has(key)) problems.push(`${key}: in the document but no route folder serves it`);
    }
  }
  return problems;
}

/** A route acting on one family's thread: the access rule applies, so its contract names its need. */
export function isThreadScoped(path: string): boolean {
  return path.startsWith('/api/conversations/{id}');
}
