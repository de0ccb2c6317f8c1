// The API tokens page (account menu → Tokens): create a token, see its secret once, use it as a
// Bearer token, revoke it (then 401). Also axe-clean and usable at phone width. Needs the new
// runner's fixtures (baseURL pointing at a studio started for the run).
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { seriousViolations } from './support/axe';

test('create a token, see its secret once, use it, and revoke it', async ({ page, request }) => {
  await new AuthPage(page).signUp(`tokens-${Date.now()}@example.test`, 'correct horse battery');
  await page.getByTestId('tokens-link').click();
  await expect(page.getByTestId('tokens-page')).toBeVisible();
  await expect(page.getByTestId('tokens-empty')).toBeVisible();

  // Keyboard only: the name field, then Enter submits.
  await page.getByTestId('token-name-input').focus();
  await page.keyboard.type('e2e script');
  await page.keyboard.press('Enter');
  const secret = ((await page.getByTestId('token-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^trl_/);
  await expect(page.getByTestId('token-row')).toHaveCount(1);
  await expect(page.getByTestId('token-name')).toHaveText('e2e script');
  expect(await seriousViolations(page)).toEqual([]);

  // The secret works on its own (no cookie in this request context).
  const used = await request.get('/api/conversations', { headers: { authorization: `Bearer ${secret}` } });
  expect(used.status()).toBe(200);

  // Shown once: after a reload only its prefix is listed.
  await page.reload();
  await expect(page.getByTestId('token-row')).toHaveCount(1);
  await expect(page.getByTestId('token-secret')).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);

  await page.getByTestId('token-revoke').click();
  await page.getByTestId('confirm-accept').click();
  await expect(page.getByTestId('tokens-empty')).toBeVisible();
  const refused = await request.get('/api/conversations', { headers: { authorization: `Bearer ${secret}` } });
  expect(refused.status()).toBe(401);
});

test('the tokens page fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await new AuthPage(page).signUp(`tokens-phone-${Date.now()}@example.test`, 'correct horse battery');
  await page.goto('/settings/tokens');
  await page.getByTestId('token-name-input').fill('phone');
  await page.getByTestId('token-create').click();
  await expect(page.getByTestId('token-secret')).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  expect(await seriousViolations(page)).toEqual([]);
});

test('/api/docs has a table of contents, no catch-all entries, rendered Markdown, and no serious axe violations', async ({
  page,
}) => {
  await page.goto('/api/docs');
  await expect(page.getByTestId('api-toc')).toBeVisible();
  await expect(page.getByText('{unknown}')).toHaveCount(0);
  await page
    .getByTestId('api-toc')
    .getByRole('link', { name: /DELETE \/api\/tokens\/\{id\}/ })
    .click();
  await expect(page).toHaveURL(/#delete-api-tokens-id$/);
  expect(await seriousViolations(page)).toEqual([]);
});
