import { expect, type Locator, type Page } from '@playwright/test';

export interface ConditionForm {
  name: string;
  branching: boolean;
  weight?: number;
  systemPrompt?: string;
}

export interface StudyForm {
  title: string;
  consent: string;
  instructions: string;
  objective: string;
  documentTitle: string;
  document: string;
  conditions: ConditionForm[];
  timeLimitMinutes?: number;
  completionCode?: string;
}

/** The researcher's study pages: the editor, the list, the dashboard. Addressed by data-testid. */
export class StudiesPage {
  constructor(readonly page: Page) {}

  byTestId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  /** From the studio's header to the list, then the editor; fills it in and saves; the study's id. */
  async create(form: StudyForm): Promise<string> {
    await this.byTestId('studies-link').click();
    await this.byTestId('studies-page').waitFor();
    await this.byTestId('new-study').click();
    await this.byTestId('study-editor').waitFor();
    await this.byTestId('study-title').fill(form.title);
    await this.byTestId('study-consent').fill(form.consent);
    await this.byTestId('study-instructions').fill(form.instructions);
    await this.byTestId('study-objective').fill(form.objective);
    await this.byTestId('study-document-title').fill(form.documentTitle);
    await this.byTestId('study-document').fill(form.document);
    for (const [i, condition] of form.conditions.entries()) {
      if (i > 0) await this.byTestId('add-condition').click();
      const fields = this.byTestId('condition').nth(i);
      await fields.getByTestId('condition-name').fill(condition.name);
      await fields.getByTestId('condition-branching').setChecked(condition.branching);
      await fields.getByTestId('condition-weight').fill(String(condition.weight ?? 1));
      if (condition.systemPrompt) await fields.getByTestId('condition-system-prompt').fill(condition.systemPrompt);
    }
    if (form.timeLimitMinutes !== undefined) await this.byTestId('study-time-limit').fill(String(form.timeLimitMinutes));
    if (form.completionCode !== undefined) await this.byTestId('study-completion-code').fill(form.completionCode);
    await this.byTestId('study-save').click();
    await this.page.waitForURL(/\/studies\/[0-9a-f-]{36}$/);
    await this.byTestId('study-title-heading').waitFor();
    return new URL(this.page.url()).pathname.split('/').at(-1)!;
  }

  async open(): Promise<void> {
    await this.byTestId('study-open').click();
    await expect(this.byTestId('study-status')).toHaveText('open');
  }

  /** The link to hand out, as the dashboard shows it (absolute). */
  async joinUrl(): Promise<string> {
    await expect(this.byTestId('study-join-url')).toHaveText(/^https?:\/\/.+\/join\/s\/[A-Za-z0-9_-]+$/);
    return (await this.byTestId('study-join-url').innerText()).trim();
  }

  get rows(): Locator {
    return this.byTestId('participant-row');
  }

  row(participantId: string): Locator {
    return this.page.locator(`[data-testid="participant-row"][data-participant-id="${participantId}"]`);
  }

  async count(condition: string): Promise<number> {
    const card = this.page.locator(`[data-testid="condition-count"][data-condition="${condition}"]`);
    return Number(await card.getByTestId('condition-participants').innerText());
  }
}

/** A participant: the consent page, then their studio. */
export class ParticipantPage {
  constructor(readonly page: Page) {}

  byTestId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  async agree(): Promise<string> {
    await this.byTestId('consent-agree').click();
    await this.page.waitForURL(/\/join\/s\/[A-Za-z0-9_-]+\/c\/th_[0-9a-f]{32}$/);
    await this.byTestId('studio').waitFor();
    return /\/c\/(th_[0-9a-f]{32})$/.exec(new URL(this.page.url()).pathname)![1]!;
  }

  async send(text: string): Promise<void> {
    const input = this.byTestId('chat-input');
    await input.fill(text);
    await input.press('Enter');
  }

  async waitForReplies(count: number): Promise<void> {
    await this.page.locator(`[data-testid="message-assistant"][data-status="complete"] >> nth=${count - 1}`).waitFor();
    await this.page.locator('[data-testid="chat-input"][data-running="false"]').waitFor();
  }

  /** Finish, confirmed; the completion code the page shows. */
  async finish(): Promise<string> {
    await this.byTestId('finish').click();
    await this.byTestId('confirm-accept').click();
    const dialog = this.byTestId('completion-dialog');
    await dialog.waitFor();
    return (await dialog.getByTestId('completion-code').innerText()).trim();
  }
}
