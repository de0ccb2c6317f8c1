import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { test, expect } from './support/test';
import { uniqueEmail } from './support/browser';
import { AuthPage } from './pages/auth-page';
import { SiblingsPage } from './pages/siblings-page';

// The header's Export menu downloads the displayed path as Markdown and the family as a zip.

test.describe('the Export menu', () => {
  test('downloads the path as Markdown and the family as a zip; Escape and a click elsewhere close it; the header fits a phone', async ({
    page,
  }) => {
    const studio = new SiblingsPage(page);
    await new AuthPage(page).signUp(uniqueEmail('export'), 'correct horse battery');
    expect(await studio.byTestId('export-menu').count()).toBe(0);
    const threadId = await studio.newConversation();
    await studio.send('todo: Count the bees');
    await studio.waitForStep(1, 'todo: Count the bees');

    await studio.byTestId('export-toggle').click();
    await studio.byTestId('export-markdown').waitFor();
    const [markdown] = await Promise.all([
      page.waitForEvent('download'),
      studio.byTestId('export-markdown').click(),
    ]);
    expect(markdown.suggestedFilename()).toMatch(/\.md$/);
    const path = await markdown.path();
    expect(await readFile(path, 'utf8')).toContain('todo: Count the bees');
    // Choosing an item closes the menu.
    expect(await studio.byTestId('export-menu').getAttribute('open')).toBeNull();

    await studio.byTestId('export-toggle').click();
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      studio.byTestId('export-family').click(),
    ]);
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);
    expect((await readFile(await zip.path())).subarray(0, 2).toString('latin1')).toBe('PK');
    expect(await studio.byTestId('export-family').getAttribute('href')).toBe(
      `/api/conversations/${threadId}/export?format=markdown&scope=family`,
    );

    // The research dataset streams into the page (the menu says how far it is), then downloads.
    await studio.byTestId('export-toggle').click();
    const [dataset] = await Promise.all([
      page.waitForEvent('download'),
      studio.byTestId('export-dataset').click(),
    ]);
    expect(dataset.suggestedFilename()).toMatch(/ dataset\.zip$/);
    const packaged = unzipSync(new Uint8Array(await readFile(await dataset.path())));
    expect(Object.keys(packaged)).toContain('datapackage.json');
    expect(Object.keys(packaged)).toContain('steps.csv');
    expect(await studio.byTestId('export-menu').getAttribute('open')).toBeNull();

    await studio.byTestId('export-toggle').click();
    await studio.byTestId('export-markdown').waitFor();
    await page.keyboard.press('Escape');
    expect(await studio.byTestId('export-menu').getAttribute('open')).toBeNull();

    // A click elsewhere closes it too.
    await studio.byTestId('export-toggle').click();
    await studio.byTestId('export-markdown').waitFor();
    await studio.byTestId('chat-input').click();
    expect(await studio.byTestId('export-menu').getAttribute('open')).toBeNull();

    // On a phone the header still fits the screen with the menu in it.
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
