/**
 * In Chromium: a zipped Claude Code project folder — a session resumed in a second
 * file, and a subagent run in `<session>/subagents/` — is dropped on the import page, inspected
 * (two sessions, one subagent attached to its Task call) and imported as ONE family with two paths;
 * the subagent run shows as a collapsed detail under the call that started it, not as a path.
 */
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { test, expect } from './support/test';
import { FamilyGraphSchema } from '@trellis/domain';
import { projectFolder } from '@trellis/transcripts/testing/project-folder';
import { uniqueEmail } from './support/browser';
import { AuthPage } from './pages/auth-page';

const PASSWORD = 'correct horse battery';
const SCREENSHOTS = process.env.TRELLIS_SCREENSHOT_DIR;

function projectZip(): Buffer {
  return Buffer.from(zipSync(Object.fromEntries(projectFolder().map((f) => [f.path, strToU8(f.text)]))));
}

test('imports a zipped project folder (a resumed session and a subagent) as one family with two paths', async ({
  page,
  axe,
}) => {
  await new AuthPage(page).signUp(uniqueEmail('import-project'), PASSWORD);
  await page.goto('/import');
  await page.getByTestId('import-page').waitFor();
  await page
    .getByTestId('transcript-file-input')
    .setInputFiles({ name: 'project.zip', mimeType: 'application/zip', buffer: projectZip() });

  await page.getByTestId('inspection').waitFor();
  await expect(page.getByTestId('project-session-count')).toHaveText('2 sessions');
  await expect(page.getByTestId('project-subagent-count')).toHaveText('1 subagent run');
  await expect(page.getByTestId('project-session').nth(1)).toContainText('continues aaaa-first.jsonl');
  await expect(page.getByTestId('leaf-count')).toHaveText('2 leaves');
  // A project imports as one family only.
  await expect(page.getByTestId('import-selected')).toHaveCount(0);
  await axe(page);
  if (SCREENSHOTS)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'import-project-inspected.png'), fullPage: true });

  await page.getByTestId('import-family').click();
  await page.waitForURL(/\/c\/th_[0-9a-f]{32}$/, { timeout: 30_000 });
  await page.getByTestId('studio').waitFor();
  const landed = new URL(page.url()).pathname.split('/').at(-1)!;

  const response = await page.request.get(`/api/conversations/${landed}/graph`);
  expect(response.status()).toBe(200);
  const graph = FamilyGraphSchema.parse(await response.json());
  // One family: the first session's path to the lexer, and the resumed path through the tokenizer.
  expect(graph.threads).toHaveLength(2);
  expect(graph.threads.filter((t) => t.parent_thread_id === null)).toHaveLength(1);
  expect(graph.nodes.map((n) => n.user_message).sort()).toEqual(
    ['Carry on with the grammar', 'Plan the parser', 'Write the lexer instead', 'Write the tokenizer'].sort(),
  );

  // The landed path is the resumed one; its first reply holds the Task call and, folded, its run.
  await page.getByText('Grammar done.').first().waitFor();
  const run = page.getByTestId('subagent-run');
  await expect(run).toHaveCount(1);
  await expect(run).toHaveAttribute('data-agent-id', 'ag1');
  await expect(run).not.toHaveAttribute('open', /.*/);
  await expect(run.getByTestId('subagent-run-body')).toBeHidden();
  await run.locator('summary').click();
  await expect(run.getByTestId('subagent-run-body')).toBeVisible();
  await expect(run.getByTestId('subagent-run-body')).toContainText('Find grammar files');
  await expect(run.getByTestId('subagent-run-body')).toContainText('Two grammars found');
  await axe(page, '[data-testid="subagent-run"]');
  if (SCREENSHOTS)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'import-project-subagent.png'), fullPage: true });
});
