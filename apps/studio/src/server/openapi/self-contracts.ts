// The contracts of the two routes that serve the API's own description. They live here, not in their
// route files, so the list of route modules the document is built from never imports the routes that
// read it: the registry is imported one way.
import type { RouteContract } from '../define-route';

export const OPENAPI_JSON_CONTRACT: RouteContract<undefined, undefined, undefined> = {
  method: 'GET',
  path: '/api/openapi.json',
  isPublic: true,
  tag: 'system',
  summary: 'This document',
  contentType: 'application/json',
  errors: [],
};

export const DOCS_CONTRACT: RouteContract<undefined, undefined, undefined> = {
  method: 'GET',
  path: '/api/docs',
  isPublic: true,
  tag: 'system',
  summary: 'Browsable API reference',
  contentType: 'text/html',
  errors: [],
};
