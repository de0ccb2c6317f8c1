import type { Page } from '@playwright/test';
import type { MemberRole } from '@trellis/domain';

/** The members dialog ("People" in the header) and the join page of an invitation. */
export class MembersPage {
  constructor(private readonly page: Page) {}

  dialog() {
    return this.page.getByTestId('members-dialog');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('members-open').click();
    await this.dialog().getByTestId('members-list').getByTestId('member-row').first().waitFor();
  }

  /** Creates an invitation link for `role` and answers it (the owner's dialog must be open). */
  async invite(role: MemberRole): Promise<string> {
    await this.dialog().getByTestId('invite-role').selectOption(role);
    await this.dialog().getByTestId('invite-create').click();
    const url = this.dialog().getByTestId('invite-url');
    await url.waitFor();
    return url.inputValue();
  }

  async remove(name: string): Promise<void> {
    await this.dialog().getByRole('button', { name: `Remove ${name}` }).click();
  }

  async close(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.dialog().waitFor({ state: 'hidden' });
  }

  /** On the join page, signed out: signs up there and joins. */
  async signUpAndJoin(url: string, email: string, password: string, name: string): Promise<void> {
    await this.page.goto(url);
    await this.page.getByLabel('Name').fill(name);
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign up' }).click();
    await this.page.getByTestId('join-accept').click();
    await this.page.getByTestId('studio').waitFor();
  }
}
