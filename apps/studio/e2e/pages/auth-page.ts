import type { Page } from '@playwright/test';

export class AuthPage {
  constructor(private readonly page: Page) {}

  async signUp(email: string, password: string, name = 'E2E User'): Promise<void> {
    await this.page.goto('/sign-up');
    await this.page.getByLabel('Name').fill(name);
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign up' }).click();
    await this.page.getByTestId('studio').waitFor();
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.page.goto('/sign-in');
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
    await this.page.getByTestId('studio').waitFor();
  }

  async signOut(): Promise<void> {
    await this.page.getByTestId('sign-out').click();
    await this.page.getByTestId('sign-in-form').waitFor();
  }
}
