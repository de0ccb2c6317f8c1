/**
 * Two people in one family, in two browser contexts with two accounts: the owner invites by a link,
 * the second person signs up on the join page, joins and finds the family under "Shared with me";
 * as a viewer they see no Send and no editable field; the owner's removal ends their access in
 * their open tab at once. axe on the members dialog and the join page.
 */
import { AuthPage } from './pages/auth-page';
import { MembersPage } from './pages/members-page';
import { StudioPage } from './pages/studio-page';
import { uniqueEmail } from './support/browser';
import { expect, test } from './support/test';

const PASSWORD = 'correct horse battery';

test.describe('people in a family', () => {
  // Three accounts, two browser contexts and a full-page axe run each: more than the default budget on a busy machine.
  test.describe.configure({ timeout: 300_000 });

  test('the owner invites, the second person joins, reads as a viewer, and loses access when removed', async ({
    page,
    newPage,
    axe,
  }) => {
    const owner = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('ana'), PASSWORD, 'Ana');
    const threadId = await owner.newConversation();
    await owner.send('doc: # Field notes\nBees dance.');
    await owner.waitForReplies(1);

    const ownerMembers = new MembersPage(page);
    await ownerMembers.open();
    await axe(page, '[data-testid="members-dialog"]');
    const link = await ownerMembers.invite('viewer');
    expect(link).toMatch(/\/join\/[A-Za-z0-9_-]{43}$/);
    await ownerMembers.close();

    const { page: second } = await newPage();
    await second.goto(link);
    await second.getByTestId('sign-up-form').waitFor();
    await axe(second);
    const secondMembers = new MembersPage(second);
    await secondMembers.signUpAndJoin(link, uniqueEmail('ben'), PASSWORD, 'Ben');
    await expect(second).toHaveURL(new RegExp(`/c/${threadId}$`));

    // Under "Shared with me", with its owner's name; the chat and workspace read, nothing to type in.
    const shared = second.getByTestId('shared-list');
    await expect(shared.getByTestId('conversation-title')).toHaveText(['Field notes']);
    await expect(shared.getByTestId('shared-by')).toHaveText('Ana · can read');
    await second.getByTestId('message-assistant').first().waitFor();
    await expect(second.getByTestId('read-only-note')).toBeVisible();
    await expect(second.getByTestId('chat-input')).toHaveCount(0);
    await expect(second.getByTestId('send')).toHaveCount(0);
    await expect(second.getByTestId('workspace-read-only')).toContainText('Bees dance.');
    await expect(second.locator('[contenteditable="true"], textarea')).toHaveCount(0);
    await expect(second.getByTestId('workspace-panel').locator('input, select, button[data-testid^="add-"]')).toHaveCount(0);
    await axe(second);

    // The joined member is in the owner's list; removing them ends their open tab's access at once.
    await ownerMembers.open();
    await expect(ownerMembers.dialog().getByTestId('member-row')).toHaveCount(2);
    const removed = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/members/'));
    await ownerMembers.remove('Ben');
    expect((await removed).status()).toBe(204);
    // No reload: the family's event tells the open tab (the services' test times the stream's end at
    // under 2 s; here the budget also covers the tab's re-read on a busy machine).
    await expect(second.getByTestId('chat-missing')).toContainText('do not have access', { timeout: 10_000 });
    await expect(second.getByTestId('message-assistant')).toHaveCount(0);
    await expect(second.getByTestId('shared-group')).toHaveCount(0);
  });

  test('a used link opens nothing: the join page says so, and it is axe-clean', async ({ page, newPage, axe }) => {
    const owner = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('cleo'), PASSWORD, 'Cleo');
    await owner.newConversation();
    const members = new MembersPage(page);
    await members.open();
    const link = await members.invite('editor');

    const { page: first } = await newPage();
    await new MembersPage(first).signUpAndJoin(link, uniqueEmail('dan'), PASSWORD, 'Dan');
    // An editor writes: the message box is there.
    await expect(first.getByTestId('chat-input')).toBeVisible();

    const { page: late } = await newPage();
    await late.goto(link);
    await late.getByLabel('Name').fill('Eve');
    await late.getByLabel('Email').fill(uniqueEmail('eve'));
    await late.getByLabel('Password').fill(PASSWORD);
    await late.getByRole('button', { name: 'Sign up' }).click();
    await late.getByTestId('join-accept').click();
    await expect(late.getByTestId('join-gone')).toBeVisible();
    await axe(late);
  });
});
