import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, uniqueEmail } from './support/browser';
import { AuthPage } from './pages/auth-page';

describe('accounts in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('signs up, lands on the empty studio, signs out, signs in again', async () => {
    const { page, context } = await newPage(browser, inject('baseUrl'));
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
    await context.close();
  });
});
