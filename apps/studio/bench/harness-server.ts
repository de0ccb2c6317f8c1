/**
 * Serves the panel harness on 127.0.0.1: panel-harness.tsx bundled with esbuild (React, React Flow
 * and the real panel, production mode), the studio's globals.css compiled by Tailwind for the panel's
 * classes, and any extra files (graph responses). Everything is built in memory; nothing is written.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tailwind from '@tailwindcss/postcss';
import { build } from 'esbuild';
import postcss from 'postcss';

const benchDir = import.meta.dirname;
const studioDir = path.resolve(benchDir, '..');

interface Asset {
  readonly type: string;
  readonly body: string | Uint8Array;
}

export interface HarnessServer {
  readonly url: string;
  close(this: void): Promise<void>;
}

async function bundleHarness(minify: boolean): Promise<Map<string, Asset>> {
  const result = await build({
    entryPoints: [path.join(benchDir, 'panel-harness.tsx')],
    bundle: true,
    write: false,
    // Names the in-memory outputs only: write is false.
    outdir: path.join(benchDir, 'harness-out'),
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify,
    // Readable names in profiles when not minified.
    keepNames: !minify,
    tsconfig: path.join(studioDir, 'tsconfig.json'),
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const assets = new Map<string, Asset>();
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    assets.set(`/${name}`, {
      type: name.endsWith('.css') ? 'text/css' : 'text/javascript',
      body: file.contents,
    });
  }
  return assets;
}

/** The studio's own stylesheet, scanning only the components the panel and the harness use. */
async function compileTailwind(): Promise<string> {
  const from = path.join(benchDir, 'harness.css');
  const input = [
    `@import ${JSON.stringify(path.join(studioDir, 'src/app/globals.css'))};`,
    `@source ${JSON.stringify(path.join(studioDir, 'src/components/trajectory'))};`,
    `@source ${JSON.stringify(path.join(studioDir, 'src/components/ui'))};`,
    `@source ${JSON.stringify(path.join(benchDir, 'panel-harness.tsx'))};`,
  ].join('\n');
  const result = await postcss([
    tailwind({ base: path.join(studioDir, 'src/components/trajectory') }),
  ]).process(input, { from });
  return result.css;
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Trajectory panel harness</title>
<link rel="stylesheet" href="/tailwind.css"><link rel="stylesheet" href="/panel-harness.css">
</head><body class="antialiased"><div id="root"></div><script type="module" src="/panel-harness.js"></script></body></html>`;

export async function startHarnessServer(
  extra: Record<string, string> = {},
  options: { minify?: boolean } = {},
): Promise<HarnessServer> {
  const [bundle, css] = await Promise.all([bundleHarness(options.minify ?? true), compileTailwind()]);
  const assets = new Map<string, Asset>([
    ['/', { type: 'text/html', body: PAGE }],
    ['/tailwind.css', { type: 'text/css', body: css }],
    ...bundle,
    ...Object.entries(extra).map(([name, body]): [string, Asset] => [
      name,
      { type: 'application/json', body },
    ]),
  ]);
  const server: Server = createServer((request, response) => {
    const asset = assets.get(new URL(request.url ?? '/', 'http://harness').pathname);
    if (asset === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store' }).end(asset.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** Debian's Chromium with the flags these machines need: the same launcher the e2e tests use. */
export { launchBrowser as launchChromium } from '../e2e/support/browser';
