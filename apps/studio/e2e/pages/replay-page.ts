import type { Locator } from '@playwright/test';
import { ChangesPageSchema, type Change } from '@trellis/domain';
import { expect } from '../support/test';
import { TrajectoryPage } from './trajectory-page';

/** The replay of the displayed path: its bar, the replayed change and the read-only workspace. */
export class ReplayPage extends TrajectoryPage {
  get bar(): Locator {
    return this.byTestId('replay-bar');
  }
  get change(): Locator {
    return this.byTestId('replay-change');
  }
  get slider(): Locator {
    return this.byTestId('replay-slider');
  }

  /** Opens the replay from the workspace's Replay button; waits for the first change. */
  async open(): Promise<void> {
    await this.byTestId('replay-open').click();
    await this.waitForChange(1);
  }

  /** Waits until change `seq` is on screen and named in the URL. */
  async waitForChange(seq: number): Promise<void> {
    await this.page.locator(`[data-testid="replay-change"][data-seq="${seq}"]`).waitFor();
    await this.page.waitForURL((url) => url.searchParams.get('replay') === String(seq));
    await expect(this.slider).toHaveValue(String(seq));
  }

  /** Puts the keyboard in the bar (on Play), where ←/→ and Home/End move the replay. */
  async focusBar(): Promise<void> {
    await this.byTestId('replay-play').focus();
  }

  async press(key: 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End'): Promise<void> {
    await this.page.keyboard.press(key);
  }

  async shown(): Promise<{ seq: number; actor: string; target: string; summary: string }> {
    return {
      seq: Number(await this.change.getAttribute('data-seq')),
      actor: (await this.change.getAttribute('data-actor')) ?? '',
      target: (await this.change.getAttribute('data-target')) ?? '',
      summary: (await this.byTestId('replay-summary').textContent()) ?? '',
    };
  }

  async continueFromHere(): Promise<void> {
    await this.byTestId('replay-continue').click();
  }

  /** The path's change log, oldest first, as the API answers it. */
  async changeLog(threadId: string): Promise<Change[]> {
    const response = await this.page.request.get(`/api/conversations/${threadId}/changes?limit=500`);
    expect(response.status()).toBe(200);
    return ChangesPageSchema.parse(await response.json()).changes;
  }
}
