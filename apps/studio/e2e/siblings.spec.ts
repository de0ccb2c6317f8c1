import { test, expect } from './support/test';
import type { Locator } from '@playwright/test';
import { CursorSchema } from '@trellis/domain';
import { uniqueEmail } from './support/browser';
import { AuthPage } from './pages/auth-page';
import { SiblingsPage } from './pages/siblings-page';

// Edits and regenerations are sibling branches, `‹ i/n ›` moves between them,
// the view the user left is the one they come back to, and a link names the thread it shows.
// The offline model answers deterministically, so a regenerated reply may read like the original:
// those flows assert on thread ids, URLs and positions; edits use different directives so the
// conversation below visibly changes.

const PASSWORD = 'correct horse battery';
const PHONE = { width: 390, height: 844 };

test.describe('edit and regenerate as siblings', () => {
  test('an edit makes ‹ 2/2 ›; the arrows move both ways and the conversation below follows; reload, the history menu and a deep link land where they should', async ({
    page,
    context,
  }) => {
    const chat = new SiblingsPage(page);
    await new AuthPage(page).signUp(uniqueEmail('siblings'), PASSWORD);
    const original = await chat.newConversation();
    for (const [turn, text] of [
      'What should I plant on a sunny balcony?',
      'todo: Buy tomato seeds',
      'todo: Water daily',
    ].entries()) {
      await chat.send(text);
      await chat.waitForStep(turn + 1, text);
    }
    // A linear conversation looks as before: no arrows anywhere.
    expect(await chat.byTestId('sibling-switcher').count()).toBe(0);

    // Escape leaves the message as it was.
    const box = await chat.openEditor(2);
    expect(await box.inputValue()).toBe('todo: Buy tomato seeds');
    await box.fill('todo: something else');
    await box.press('Escape');
    await box.waitFor({ state: 'detached' });
    await expect.poll(() => chat.hasFocus(chat.userMessage(2).getByTestId('edit-message'))).toBe(true);
    expect(await chat.userText(2)).toBe('todo: Buy tomato seeds');
    expect(chat.threadId()).toBe(original);

    // Enter: a sibling of step 2 whose completion streams there.
    const edited = await chat.edit(2, 'todo: Buy basil seeds');
    await chat.waitForStep(2, 'todo: Buy basil seeds');
    await chat.waitForPosition(2, '2/2');
    expect(await chat.userTexts()).toEqual([
      'What should I plant on a sunny balcony?',
      'todo: Buy basil seeds',
    ]);
    expect(await chat.replyText(2)).toContain('Buy basil seeds');
    expect(await chat.positions()).toEqual({ 2: '2/2' });
    expect(await chat.prev(2).isEnabled()).toBe(true);
    expect(await chat.next(2).isEnabled()).toBe(false);
    expect(await chat.prev(2).getAttribute('aria-label')).toBe('Previous version');
    expect(await chat.next(2).getAttribute('aria-label')).toBe('Next version');

    // The edited path grows on its own.
    await chat.send('todo: Harvest in June');
    await chat.waitForStep(3, 'todo: Harvest in June');

    // ← opens the original, with everything below step 2 as it was; the arrows stay where they were
    // when pressed, also once the rows below have settled.
    await chat.switcher(2).scrollIntoViewIfNeeded();
    const top = await chat.clickReadingTop(chat.prev(2), chat.switcher(2));
    await chat.waitForThread(original);
    await chat.waitForStep(3, 'todo: Water daily');
    await chat.waitForPosition(2, '1/2');
    await expect.poll(async () => Math.abs((await chat.switcher(2).boundingBox())!.y - top)).toBeLessThanOrEqual(2);
    expect(await chat.userTexts()).toEqual([
      'What should I plant on a sunny balcony?',
      'todo: Buy tomato seeds',
      'todo: Water daily',
    ]);
    expect(await chat.replyText(2)).toContain('Buy tomato seeds');
    expect(await chat.prev(2).isEnabled()).toBe(false);
    expect(await chat.next(2).isEnabled()).toBe(true);

    // → lands on the step last viewed in the edited sibling.
    await chat.next(2).click();
    await chat.waitForThread(edited);
    await chat.waitForStep(3, 'todo: Harvest in June');
    await chat.waitForPosition(2, '2/2');
    expect(await chat.userTexts()).toEqual([
      'What should I plant on a sunny balcony?',
      'todo: Buy basil seeds',
      'todo: Harvest in June',
    ]);

    // A reload keeps the branch.
    await page.reload();
    await chat.waitForStep(3, 'todo: Harvest in June');
    await chat.waitForPosition(2, '2/2');
    expect(chat.threadId()).toBe(edited);

    // The history menu opens the family where it was left, even from the original's entry.
    await page.goto('/');
    await chat.byTestId('conversation-list').waitFor();
    await page.locator(`[data-testid="conversation-item"][data-thread-id="${original}"]`).click();
    await chat.waitForThread(edited);
    await chat.waitForStep(3, 'todo: Harvest in June');
    await chat.waitForPosition(2, '2/2');

    // A deep link opens exactly the thread it names, and that becomes the family's cursor.
    await page.goto(`/c/${original}`);
    await chat.waitForStep(3, 'todo: Water daily');
    await chat.waitForPosition(2, '1/2');
    expect(chat.threadId()).toBe(original);
    await expect
      .poll(
        async () =>
          CursorSchema.parse(await (await page.request.get(`/api/conversations/${edited}/cursor`)).json())
            .thread_id,
      )
      .toBe(original);

    // A link to the edited branch, opened in another tab, shows that branch and not the cursor.
    const tab = new SiblingsPage(await context.newPage());
    await tab.page.goto(`/c/${edited}`);
    await tab.waitForStep(3, 'todo: Harvest in June');
    await tab.waitForPosition(2, '2/2');
    expect(tab.threadId()).toBe(edited);
  });

  test('regenerating twice makes ‹ 3/3 ›, the view follows each new branch while its reply streams, and the arrows walk all three', async ({
    page,
  }) => {
    const chat = new SiblingsPage(page);
    await chat.throttleRegenerateStreams(120);
    await new AuthPage(page).signUp(uniqueEmail('regen'), PASSWORD);
    const original = await chat.newConversation();
    await chat.send('todo: Outline the field guide');
    await chat.waitForStep(1, 'todo: Outline the field guide');
    await chat.send('todo: Draft the first chapter');
    await chat.waitForStep(2, 'todo: Draft the first chapter');
    expect(await chat.byTestId('sibling-switcher').count()).toBe(0);

    // Regen on the reply: the page is on the new branch before the new reply has finished.
    const first = await chat.regenerate(2);
    await chat.waitForRunningTurn();
    await chat.waitForStep(2, 'todo: Draft the first chapter');
    await chat.waitForPosition(2, '2/2');
    expect(await chat.userTexts()).toEqual([
      'todo: Outline the field guide',
      'todo: Draft the first chapter',
    ]);

    // The bottom bar's ↻ regenerates the last reply.
    const second = await chat.regenerateLast();
    await chat.waitForRunningTurn();
    await chat.waitForStep(2, 'todo: Draft the first chapter');
    await chat.waitForPosition(2, '3/3');
    expect(new Set([original, first, second]).size).toBe(3);
    expect(await chat.positions()).toEqual({ 2: '3/3' });

    // From the keyboard: focus stays on the arrows of the version that opens (← while it can go on).
    await chat.prev(2).focus();
    await page.keyboard.press('Enter');
    await chat.waitForThread(first);
    await chat.waitForPosition(2, '2/3');
    await expect.poll(() => chat.hasFocus(chat.prev(2))).toBe(true);
    await page.keyboard.press('Enter');
    await chat.waitForThread(original);
    await chat.waitForPosition(2, '1/3');
    await expect.poll(() => chat.hasFocus(chat.next(2))).toBe(true);
    expect(await chat.prev(2).isDisabled()).toBe(true);

    for (const [button, thread, position] of [
      ['next', first, '2/3'],
      ['next', second, '3/3'],
      ['prev', first, '2/3'],
      ['next', second, '3/3'],
    ] as const) {
      await (button === 'prev' ? chat.prev(2) : chat.next(2)).click();
      await chat.waitForThread(thread);
      await chat.waitForPosition(2, position);
      await chat.reply(2).waitFor();
    }
    expect(await chat.next(2).isEnabled()).toBe(false);

    // Regenerating an earlier step forks there, and the new path ends at that step.
    const earlier = await chat.regenerate(1);
    await chat.waitForStep(1, 'todo: Outline the field guide');
    await chat.waitForPosition(1, '2/2');
    expect(await chat.userTexts()).toEqual(['todo: Outline the field guide']);
    await chat.prev(1).click();
    await chat.waitForThread(second);
    await chat.waitForPosition(2, '3/3');
    expect(earlier).not.toBe(second);
  });

  test.describe('with touch', () => {
    test.use({ hasTouch: true, isMobile: true });

    test(
      'works on a phone: the edit box and the arrows are usable, every control a 40 px tap target',
      { tag: '@phone' },
      async ({ page }) => {
        const chat = new SiblingsPage(page);
        await new AuthPage(page).signUp(uniqueEmail('siblings-phone'), PASSWORD);
        await chat.byTestId('phone-tabs').waitFor();
        await chat.send('todo: Find a sunny balcony');
        await chat.waitForStep(1, 'todo: Find a sunny balcony');
        const original = chat.threadId();
        await chat.send('todo: Buy two planters');
        await chat.waitForStep(2, 'todo: Buy two planters');

        // No hover on touch: Edit is on show and big enough to hit.
        const editButton = chat.userMessage(2).getByTestId('edit-message');
        expect(await editButton.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
        await expectTapTarget(editButton);
        await editButton.tap();
        const box = chat.userMessage(2).getByTestId('edit-box');
        await box.waitFor();
        const boxSize = await box.boundingBox();
        expect(boxSize?.width).toBeGreaterThan(PHONE.width * 0.6);
        await box.fill('todo: Buy three planters');
        await expectTapTarget(chat.userMessage(2).getByTestId('edit-submit'));
        await chat.userMessage(2).getByTestId('edit-submit').tap();
        const edited = await chat.waitForThreadOtherThan(original);
        await chat.waitForStep(2, 'todo: Buy three planters');
        await chat.waitForPosition(2, '2/2');

        await expectTapTarget(chat.prev(2));
        await expectTapTarget(chat.next(2));
        await chat.prev(2).tap();
        await chat.waitForThread(original);
        await chat.waitForStep(2, 'todo: Buy two planters');
        await chat.waitForPosition(2, '1/2');
        await chat.next(2).tap();
        await chat.waitForThread(edited);
        await chat.waitForStep(2, 'todo: Buy three planters');
        await chat.waitForPosition(2, '2/2');

        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      },
    );
  });
});

async function expectTapTarget(control: Locator): Promise<void> {
  const box = await control.boundingBox();
  expect(box, 'the control is on screen').not.toBeNull();
  expect(box!.width).toBeGreaterThanOrEqual(40);
  expect(box!.height).toBeGreaterThanOrEqual(40);
}
