/**
 * Browser entry of the panel harness (bundled by harness-server.ts, never by Next): mounts the real
 * TrajectoryPanel the way the studio does, above a stand-in chat, and exposes `window.trajectoryHarness`
 * to drive it — set its props, and time a graph response until every card in view is on screen.
 */
import type { FamilyGraph } from '@trellis/domain';
import { StrictMode, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { TrajectoryPanel, type TrajectoryPanelProps } from '../src/components/trajectory';
import { CONTROLS_BAR_HEIGHT } from '../src/components/trajectory/trajectory-canvas';
import { layoutTrajectory, nodeRect } from '../src/components/trajectory/trajectory-layout';
import { visibleIds } from '../src/components/trajectory/viewport';

type HarnessProps = Pick<
  TrajectoryPanelProps,
  'graph' | 'isLoading' | 'error' | 'displayedThreadId' | 'currentNodeId' | 'collapsed'
>;

export interface HarnessEvent {
  readonly kind: 'select' | 'continue' | 'open' | 'compare';
  /** A node id, a thread id, or for a compare the two node ids joined by a space. */
  readonly id: string;
}

export interface Measurement {
  /** From parsing the graph response until every card in view is in the DOM. */
  readonly ms: number;
  /** From parsing the graph response to the animation frame that paints them. */
  readonly frameMs: number;
  readonly cardsInView: number;
  readonly cardsRendered: number;
  readonly nodes: number;
}

let props: HarnessProps = {
  graph: undefined,
  isLoading: true,
  displayedThreadId: '',
  currentNodeId: null,
  collapsed: false,
};
const listeners = new Set<() => void>();
const events: HarnessEvent[] = [];

function setProps(patch: Partial<HarnessProps>): void {
  props = { ...props, ...patch };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function Harness() {
  // The studio's graph arrives through TanStack Query, i.e. an external store: same delivery here.
  const current = useSyncExternalStore(subscribe, () => props);
  return (
    <div className="flex h-screen flex-col bg-background" style={{ width: 'var(--harness-width, 720px)' }}>
      <TrajectoryPanel
        {...current}
        onSelectStep={(id) => events.push({ kind: 'select', id })}
        onContinueFrom={(node) => events.push({ kind: 'continue', id: node.id })}
        onOpenThread={(threadId) => events.push({ kind: 'open', id: threadId })}
        onCompare={(a, b) => events.push({ kind: 'compare', id: `${a} ${b}` })}
        onToggleCollapsed={() => setProps({ collapsed: !props.collapsed })}
      />
      <div className="flex-1 p-4 text-sm text-muted-foreground">Chat</div>
    </div>
  );
}

const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

async function settle(frames = 3): Promise<void> {
  for (let i = 0; i < frames; i++) await frame();
}

/** The flow viewport from React Flow's transform; reading a style forces no layout. */
function readTransform(panel: HTMLElement): { x: number; y: number; zoom: number } | null {
  const viewport = panel.querySelector<HTMLElement>('.react-flow__viewport');
  const match = viewport?.style.transform.match(
    /translate\(([-\d.e]+)px,\s*([-\d.e]+)px\)\s*scale\(([-\d.e]+)\)/,
  );
  if (match == null) return null;
  return { x: Number(match[1]), y: Number(match[2]), zoom: Number(match[3]) };
}

/**
 * Hands the panel a graph response and waits until every card in view is rendered: `domMs` when a
 * DOM mutation first completes the set (React committed it), `frameMs` at the start of the next
 * animation frame (the one that paints it).
 */
async function measure(
  responseText: string,
  displayedThreadId: string,
  currentNodeId: string | null,
): Promise<Measurement> {
  // What "in view" means is computed up front from the same pure layout, outside the timed span.
  const expected = layoutTrajectory(JSON.parse(responseText) as FamilyGraph, {
    displayedThreadId,
    currentNodeId,
  });
  const rects = expected.nodes.map((node) => ({ id: node.id, rect: nodeRect(node) }));
  setProps({ graph: undefined, isLoading: true, error: undefined, collapsed: false });
  await settle();
  const panel = document.querySelector<HTMLElement>('[data-testid="trajectory-panel"]');
  // The loading skeleton fills the same body the canvas and its controls bar will: the canvas is
  // that size less the bar, read before the clock starts so the checks below never force a layout.
  const body = panel?.querySelector<HTMLElement>('[data-testid="trajectory-loading"]')?.parentElement;
  if (panel == null || body == null) throw new Error('the panel is not in its loading state');
  const size = { width: body.clientWidth, height: body.clientHeight - CONTROLS_BAR_HEIGHT };

  const check = (): { cardsInView: number; cardsRendered: number } | null => {
    const viewport = readTransform(panel);
    if (viewport === null) return null;
    const inView = visibleIds(rects, viewport, size);
    const rendered = new Set(
      [...panel.querySelectorAll<HTMLElement>('[data-node-id]')].map((el) => el.dataset.nodeId),
    );
    return inView.length > 0 && inView.every((id) => rendered.has(id))
      ? { cardsInView: inView.length, cardsRendered: rendered.size }
      : null;
  };

  return new Promise<Measurement>((resolve) => {
    let start = 0;
    const observer = new MutationObserver(() => {
      const ready = check();
      if (ready === null) return;
      const domMs = performance.now() - start;
      observer.disconnect();
      requestAnimationFrame(() => {
        resolve({ ms: domMs, frameMs: performance.now() - start, ...ready, nodes: rects.length });
      });
    });
    observer.observe(panel, { childList: true, subtree: true, attributes: true, attributeFilter: ['style'] });
    start = performance.now();
    const graph = JSON.parse(responseText) as FamilyGraph;
    setProps({ graph, isLoading: false, displayedThreadId, currentNodeId });
  });
}

declare global {
  interface Window {
    trajectoryHarness: {
      setProps: typeof setProps;
      measure: typeof measure;
      settle: typeof settle;
      events: HarnessEvent[];
    };
  }
}

window.trajectoryHarness = { setProps, measure, settle, events };
const container = document.getElementById('root');
if (container === null) throw new Error('harness page has no #root');
createRoot(container).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
