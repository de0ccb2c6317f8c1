import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractsOf, type RouteContract } from '../define-route';
import { buildOpenApiDocumentFromContracts } from './document';
import { coverageProblems, scanRouteFolders } from './coverage';
import { API_ROUTE_CONTRACTS } from './route-modules';
import { DOCS_CONTRACT, OPENAPI_JSON_CONTRACT } from './self-contracts';

const folders = scanRouteFolders(path.resolve(import.meta.dirname, '../../app/api'));
const contracts = API_ROUTE_CONTRACTS;
const documentOf = (list: RouteContract[]) => buildOpenApiDocumentFromContracts('http://127.0.0.1:3000', list);

/** The contracts with one declaration replaced, as a stale or careless edit would leave them. */
function withWrong(method: string, routePath: string, change: (c: RouteContract) => RouteContract): RouteContract[] {
  const index = contracts.findIndex((c) => c.method === method && c.path === routePath);
  expect(index, `${method} ${routePath} exists`).toBeGreaterThanOrEqual(0);
  return contracts.map((c, i) => (i === index ? change(c) : c));
}

describe('OpenAPI coverage', () => {
  it('the generated document matches every route folder, its parameter names, bodies and errors', () => {
    expect(folders.length).toBeGreaterThanOrEqual(30);
    expect(coverageProblems(documentOf(contracts), folders, contracts)).toEqual([]);
  });

  it('the routes that serve the document carry the contracts the registry lists for them', async () => {
    const self = [await import('@/app/api/openapi.json/route'), await import('@/app/api/docs/route')].flatMap(contractsOf);
    expect(self).toEqual([OPENAPI_JSON_CONTRACT, DOCS_CONTRACT]);
  });

  it('lists the fallback for unclaimed /api paths among the folders but documents no catch-all path', () => {
    expect(folders.map((f) => `${f.method} ${f.path}`)).toContain('GET /api/{unknown}');
    const doc = documentOf(contracts);
    expect(Object.keys(doc.paths).filter((p) => p.includes('{unknown}'))).toEqual([]);
    // Documented, it is reported.
    const documented = contracts.map((c) => (c.isFallback ? { ...c, isFallback: false } : c));
    expect(coverageProblems(documentOf(documented), folders, contracts)).toContain(
      'GET /api/{unknown}: the fallback for unclaimed paths is in the document',
    );
  });

  it('documents the unified diff that the compare answers with format=diff beside its JSON', () => {
    const ok = documentOf(contracts).paths['/api/conversations/{id}/compare']!.get!.responses['200'] as {
      content: Record<string, { schema: { type?: string; description?: string } }>;
    };
    expect(Object.keys(ok.content)).toEqual(['application/json', 'text/x-diff']);
    expect(ok.content['text/x-diff']!.schema).toMatchObject({ type: 'string', description: expect.stringContaining('format=diff') });
  });

  it('a declaration naming a parameter unlike its folder ({pid} for [tid]) is reported', () => {
    const wrong = withWrong('PATCH', '/api/conversations/{id}/todos/{tid}', (c) => ({ ...c, path: '/api/conversations/{id}/todos/{pid}' }));
    const problems = coverageProblems(documentOf(wrong), folders, wrong);
    expect(problems).toContain('PATCH /api/conversations/{id}/todos/{tid}: served by a route folder but not in the document');
    expect(problems).toContain('PATCH /api/conversations/{id}/todos/{pid}: in the document but no route folder serves it');
  });

  it('a declared parameter the folder does not have is reported', () => {
    const wrong = withWrong('GET', '/api/conversations/{id}', (c) => ({ ...c, params: { thread: z.string() } }));
    expect(coverageProblems(documentOf(wrong), folders, wrong).join('\n')).toMatch(/GET \/api\/conversations\/\{id\}: path parameters \["thread"\]/);
  });

  it('a document whose body differs from the handler is reported', () => {
    const wrong = withWrong('POST', '/api/conversations/{id}/todos', (c) => ({ ...c, body: z.object({ title: z.string() }) }));
    expect(coverageProblems(documentOf(wrong), folders, contracts)).toEqual([
      "POST /api/conversations/{id}/todos: the documented body differs from the handler's",
    ]);
  });

  it('a document whose errors differ from the handler is reported', () => {
    const wrong = withWrong('POST', '/api/conversations/{id}/branch', (c) => ({ ...c, errors: c.errors.filter((e) => e !== 'conflict') }));
    expect(coverageProblems(documentOf(wrong), folders, contracts)).toEqual([
      expect.stringMatching(/^POST \/api\/conversations\/\{id\}\/branch: the documented errors differ/),
    ]);
  });

  it('a declaration that omits an error the wrapper answers (404 for a malformed id) is reported', () => {
    const wrong = withWrong('DELETE', '/api/tokens/{id}', (c) => ({ ...c, errors: c.errors.filter((e) => e !== 'not_found') }));
    expect(coverageProblems(documentOf(wrong), folders, wrong)).toEqual(['DELETE /api/tokens/{id}: answers not_found but does not declare it']);
  });

  it('a thread-scoped route that does not say what access it needs is reported', () => {
    const wrong = withWrong('PATCH', '/api/conversations/{id}/workspace', ({ access: _access, ...c }) => c);
    expect(coverageProblems(documentOf(wrong), folders, wrong)).toEqual([
      'PATCH /api/conversations/{id}/workspace: a thread-scoped route must declare the access it needs (read, comment, edit or own)',
    ]);
  });

  it('a method exported under one name but declared as another is reported', () => {
    const wrong = withWrong('PATCH', '/api/conversations/{id}/workspace', (c) => ({ ...c, method: 'PUT' }));
    const problems = coverageProblems(documentOf(wrong), folders, wrong);
    expect(problems).toContain('PATCH /api/conversations/{id}/workspace: served by a route folder but not in the document');
    expect(problems).toContain('PUT /api/conversations/{id}/workspace: in the document but no route folder serves it');
  });
});
