/**
 * axe-core on every page of the studio, in Chromium: sign-in, sign-up, the empty studio, a
 * conversation with its trajectory, a restored step, the full-screen map, the import page and a
 * phone viewport. No serious or critical violation (axe's default rules: WCAG 2 A/AA and best practices).
 */
import { test } from './support/test';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';
import { uniqueEmail } from './support/browser';

const PASSWORD = 'correct horse battery';

test.describe('accessibility', () => {
  test('has no serious or critical axe violation on the sign-in and sign-up pages', async ({ page, axe }) => {
    await page.goto('/sign-in');
    await page.getByTestId('sign-in-form').waitFor();
    await axe(page);
    await page.goto('/sign-up');
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
    await axe(page);
  });

  test('has none in the studio: empty, with a conversation and its trajectory, a restored step, the full-screen map, the import page', async ({
    page,
    axe,
  }) => {
    const studio = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('axe'), PASSWORD);
    await axe(page);

    await studio.newConversation();
    await studio.send('objective: Accessible bees\ntodo: Label every hive\nprefer: Plain words');
    await studio.waitForReplies(1);
    await studio.send('doc: # Hives\nOne per garden.');
    await studio.waitForReplies(2);
    await studio.byTestId('trajectory-panel').locator('[data-testid="trajectory-node"]').first().waitFor();
    await axe(page);

    await page.goto(`${new URL(page.url()).pathname}?step=1`);
    await studio.byTestId('preview-banner').waitFor();
    await axe(page);

    await studio.byTestId('trajectory-fullscreen').click();
    await axe(page);

    await page.goto('/import');
    await page.getByRole('heading').first().waitFor();
    await axe(page);
  });

  test('has none on a phone', { tag: '@phone' }, async ({ page, axe }) => {
    const studio = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('axe-phone'), PASSWORD);
    await studio.send('todo: Tap targets');
    await studio.waitForReplies(1);
    await axe(page);
    await studio.openTab('workspace');
    await axe(page);
  });
});
