import { test, expect } from './support/test';
import { uniqueEmail } from './support/browser';
import { AuthPage } from './pages/auth-page';

test.describe('accounts in the browser', () => {
  test('signs up, lands on the empty studio, signs out, signs in again', async ({ page }) => {
    const auth = new AuthPage(page);
    const email = uniqueEmail('smoke');

    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/sign-in');

    await auth.signUp(email, 'correct horse battery');
    await expect(page.getByTestId('user-email').textContent()).resolves.toBe(email);

    await auth.signOut();
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/sign-in');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('auth-error').waitFor();

    await auth.signIn(email, 'correct horse battery');
    await expect(page.getByTestId('user-email').textContent()).resolves.toBe(email);
  });
});
