/**
 * Screenshots of the trajectory panel in Chromium, for looking at it: a five-path family (default,
 * detail card, keyboard focus, large size, a restored step), a 500-step family, and the empty,
 * loading, error and collapsed states. Usage: node --import tsx apps/studio/bench/panel-screenshots.ts <out-dir>
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, startHarnessServer } from './harness-server';
import { showcaseScenario, syntheticScenario } from './synthetic-family';

const outDir = path.resolve(process.argv[2] ?? 'trajectory-screenshots');
await mkdir(outDir, { recursive: true });

const showcase = showcaseScenario();
const big = syntheticScenario(500);
const server = await startHarnessServer({
  '/showcase.json': JSON.stringify(showcase.graph),
  '/big.json': JSON.stringify(big.graph),
});
const browser = await launchChromium();
const written: string[] = [];

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.trajectoryHarness.settle(4));
  const file = path.join(outDir, `${name}.png`);
  await page.locator('[data-testid="trajectory-panel"]').screenshot({ path: file });
  written.push(file);
}

async function show(
  page: Page,
  url: string,
  displayedThreadId: string,
  currentNodeId: string | null,
): Promise<void> {
  const text = await (await fetch(new URL(url, server.url))).text();
  await page.evaluate(
    ([responseText, displayed, current]) =>
      window.trajectoryHarness.measure(responseText, displayed, current ?? null),
    [text, displayedThreadId, currentNodeId] as const,
  );
}

try {
  const context = await browser.newContext({ viewport: { width: 760, height: 640 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  page.on('pageerror', (error) => process.stderr.write(`[page] ${error.message}\n`));
  await page.goto(server.url);
  await page.waitForFunction(() => window.trajectoryHarness !== undefined);

  await page.evaluate(() => window.trajectoryHarness.setProps({ graph: undefined, isLoading: true }));
  await shot(page, '01-loading');
  await page.evaluate(() =>
    window.trajectoryHarness.setProps({ graph: undefined, isLoading: false, error: new Error('boom') }),
  );
  await shot(page, '02-error');
  const empty = { ...showcase.graph, nodes: [], edges: [], threads: showcase.graph.threads.slice(0, 1) };
  await page.evaluate(
    (graph) => window.trajectoryHarness.setProps({ graph, isLoading: false, error: undefined }),
    empty,
  );
  await shot(page, '03-empty');

  await show(page, '/showcase.json', showcase.displayedThreadId, showcase.currentNodeId);
  await shot(page, '04-family-default');

  await page.locator('[data-testid="trajectory-node"][data-label="4.2"]').click();
  await shot(page, '05-detail-off-path');

  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  await shot(page, '06-keyboard-focus');

  await page.locator('[data-testid="trajectory-size-L"]').click();
  await page.locator('[data-testid="trajectory-panel"] .react-flow').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await shot(page, '07-large-with-detail');
  await page.locator('[data-testid="trajectory-size-M"]').click();

  const restored = `${showcase.threads.root}:2`;
  await page.evaluate(
    ([displayed, current]) =>
      window.trajectoryHarness.setProps({ displayedThreadId: displayed, currentNodeId: current }),
    [showcase.threads.root, restored] as const,
  );
  await shot(page, '08-restored-step-on-root');

  await page.evaluate(
    ([displayed, current]) =>
      window.trajectoryHarness.setProps({ displayedThreadId: displayed, currentNodeId: current }),
    [showcase.threads.fresh, `${showcase.threads.fresh}:stub`] as const,
  );
  await shot(page, '09-fresh-path-stub');

  await page.locator('[data-testid="trajectory-toggle"]').click();
  await shot(page, '10-collapsed');
  await page.locator('[data-testid="trajectory-toggle"]').click();

  await show(page, '/big.json', big.displayedThreadId, big.currentNodeId);
  await shot(page, '11-500-steps');

  const events = await page.evaluate(() => window.trajectoryHarness.events);
  console.log(JSON.stringify({ screenshots: written, events }, null, 2));
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
