import {
  ConversationListSchema,
  ConversationSchema,
  FamilyGraphSchema,
  RestoreViewSchema,
  WorkspaceSchema,
  type Conversation,
  type FamilyGraph,
  type RestoreView,
  type Workspace,
} from '@trellis/domain';
import type { Locator } from '@playwright/test';
import { StudioPage } from './studio-page';

/** What a branch is seeded with: the fields a restored step shows and a send carries over. */
export interface SeededState {
  objective: string | null;
  document: string;
  preferences: { text: string; locked: boolean }[];
  todos: { text: string; done: boolean; depth: number }[];
}

export function seededState(workspace: Workspace): SeededState {
  return {
    objective: workspace.objective,
    document: workspace.document.content,
    preferences: workspace.preferences.map(({ text, locked }) => ({ text, locked })),
    todos: workspace.todos.map(({ text, done, depth }) => ({ text, done, depth })),
  };
}

/**
 * The studio with the trajectory: the panel above the chat, step labels and offshoot chips beside
 * messages, checkpoints between turns, a restored step's banner, and the API reads that prove what
 * the server holds (every address by data-testid).
 */
export class TrajectoryPage extends StudioPage {
  get panel(): Locator {
    return this.byTestId('trajectory-panel');
  }
  get banner(): Locator {
    return this.byTestId('preview-banner');
  }
  get confirmDialog(): Locator {
    return this.byTestId('confirm-dialog');
  }

  /** `?step=k` of the URL, or null for a live tip. */
  step(): number | null {
    const step = new URL(this.page.url()).searchParams.get('step');
    return step === null ? null : Number(step);
  }

  card(label: string): Locator {
    return this.panel.locator(`[data-testid="trajectory-node"][data-label="${label}"]`);
  }

  /** A large panel with every card in view (React Flow renders only what is visible). */
  async showWholeGraph(): Promise<void> {
    await this.panel.getByTestId('trajectory-size-L').click();
    await this.panel.locator('.react-flow__controls-fitview').click();
    await this.page.waitForTimeout(250);
  }

  /** Labels of the displayed path's cards, in step order. */
  async displayedPathLabels(): Promise<string[]> {
    const labels = await this.panel
      .locator('[data-testid="trajectory-node"][data-on-path="true"]')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-label') ?? ''));
    return labels.sort(byStep);
  }

  async currentLabel(): Promise<string | null> {
    return this.panel.locator('[data-current="true"]').getAttribute('data-label');
  }

  /** The labels beside the user messages, top to bottom. */
  async messageLabels(): Promise<string[]> {
    return this.userMessages
      .getByTestId('step-label')
      .evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-label') ?? ''));
  }

  userMessage(turn: number): Locator {
    return this.page.locator(`[data-testid="message-user"][data-turn="${turn}"]`);
  }

  offshootChips(turn: number): Locator {
    return this.userMessage(turn).getByTestId('offshoot-chip');
  }

  /** "Saved checkpoint · Click to restore" after `turn` (shown on hover or focus; the click hovers first). */
  async restoreViaCheckpoint(turn: number): Promise<void> {
    await this.page.locator(`[data-testid="checkpoint-divider"][data-turn="${turn}"]`).click();
  }

  /** Opens the card's detail and presses "Continue from here". */
  async restoreViaCard(label: string): Promise<void> {
    await this.showWholeGraph();
    await this.card(label).click();
    await this.byTestId('trajectory-detail').getByTestId('continue-from-here').click();
  }

  /** Waits until the restored step `label` is on screen: banner, transcript and workspace. */
  async waitForPreview(label: string, turns: number): Promise<void> {
    await this.page.locator(`[data-testid="preview-banner"][data-step-label="${label}"]`).waitFor();
    await this.page.locator(`[data-testid="message-user"] >> nth=${turns - 1}`).waitFor();
    await this.byTestId('workspace').waitFor();
  }

  async isPreviewEdited(): Promise<boolean> {
    return (await this.banner.getAttribute('data-edited')) === 'true';
  }

  historyItem(threadId: string): Locator {
    return this.page.locator(`[data-testid="conversation-item"][data-thread-id="${threadId}"]`);
  }

  /** Clicks a conversation in the history menu (on a phone, open the History tab first). */
  async openFromHistory(threadId: string): Promise<void> {
    await this.historyItem(threadId).locator('a').click();
  }

  /** Waits for the URL to name a thread other than `from` (a new branch after a send) and returns it. */
  async waitForThreadOtherThan(from: string): Promise<string> {
    await this.page.waitForURL(
      (url) => /^\/c\/th_[0-9a-f]{32}$/.test(url.pathname) && !url.pathname.endsWith(from),
    );
    return this.threadId();
  }

  // ---- What the server holds -----------------------------------------------------------------

  async conversations(): Promise<Conversation[]> {
    const response = await this.page.request.get('/api/conversations');
    return ConversationListSchema.parse(await response.json()).conversations;
  }

  async conversation(threadId: string): Promise<Conversation> {
    const response = await this.page.request.get(`/api/conversations/${threadId}`);
    return ConversationSchema.parse(await response.json());
  }

  async restoreView(threadId: string, step: number): Promise<RestoreView> {
    const response = await this.page.request.get(`/api/conversations/${threadId}/turns/${step}`);
    if (!response.ok()) throw new Error(`restore view ${threadId}@${step}: ${response.status()}`);
    return RestoreViewSchema.parse(await response.json());
  }

  async liveWorkspace(threadId: string): Promise<Workspace> {
    const response = await this.page.request.get(`/api/conversations/${threadId}/workspace`);
    return WorkspaceSchema.parse(await response.json());
  }

  async graph(threadId: string): Promise<FamilyGraph> {
    const response = await this.page.request.get(`/api/conversations/${threadId}/graph`);
    return FamilyGraphSchema.parse(await response.json());
  }
}

/** "3.1" before "3.2" before "4"; by turn first. */
function byStep(a: string, b: string): number {
  const [ta = 0, ...ra] = a.split('.').map(Number);
  const [tb = 0, ...rb] = b.split('.').map(Number);
  return ta - tb || ra.join('.').localeCompare(rb.join('.'));
}
