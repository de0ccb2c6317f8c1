'use client';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useLayoutEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import type { ForkPlace } from '@/lib/fork-points';
import { holdPlace } from './hold-place';
import { actionButton, useMessageActions } from './message-actions';

type Direction = -1 | 1;

/**
 * The switcher the user just pressed: where it sat on screen and which arrow had focus. The switcher
 * of the version that opens takes its place, so the arrows stay under the pointer (and keep keyboard
 * focus) for the next press, however long the versions below are. Module state: one chat per page.
 */
let pressed: { turn: number; place: ForkPlace; top: number; direction: Direction; hadFocus: boolean; until: number } | null = null;
const PRESS_TTL_MS = 10_000;
/** How long the arrows are held under the pointer while the version that opened settles. */
const SETTLE_MS = 2_000;

/**
 * `‹ i/n ›` at a fork point (docs/branching.md, "Siblings: edit and regenerate"): the reply's
 * pages through that reply's regeneration alternatives, the user message's through edits and
 * continue-from-here paths (each row asks for its own `place`). ← the older sibling, → the newer one;
 * a reply's page is the alternative itself (the same step, answered again), a message's page opens the
 * step last viewed in that sibling (else its latest leaf), and the whole conversation below changes with
 * it. Nothing where nothing diverges.
 */
export function SiblingSwitcher({ turn, place }: { turn: number; place: ForkPlace }) {
  const actions = useMessageActions();
  const ref = useRef<HTMLDivElement>(null);
  const fork = actions?.forks.get(turn)?.[place];

  useLayoutEffect(() => {
    const press = pressed;
    if (!press || press.turn !== turn || press.place !== place || Date.now() > press.until || !ref.current) return;
    pressed = null;
    // After the chat's own layout effects (which follow the bottom on a newly opened thread).
    queueMicrotask(() => {
      const el = ref.current;
      if (!el) return;
      const scroller = scrollParentOf(el);
      if (scroller) {
        keepInPlace(el, scroller, press.top);
        // Tell the list now (not at the next frame) to stay here rather than follow the bottom.
        holdPlace(scroller);
      }
      if (press.hadFocus) {
        const buttons = [...el.querySelectorAll('button')];
        const same = press.direction === -1 ? buttons[0] : buttons.at(-1);
        const other = press.direction === -1 ? buttons.at(-1) : buttons[0];
        (same && !same.disabled ? same : other)?.focus({ preventScroll: true });
      }
    });
  }, [turn, place, fork !== undefined]);

  if (!actions || !fork) return null;
  const position = fork.index + 1;
  const isSwitching = actions.switchingTurn === turn;
  const noun = place === 'reply' ? 'reply' : 'message';

  const press = (direction: Direction) => {
    const el = ref.current;
    if (el) {
      pressed = {
        turn,
        place,
        top: el.getBoundingClientRect().top,
        direction,
        hadFocus: el.contains(document.activeElement),
        until: Date.now() + PRESS_TTL_MS,
      };
    }
    actions.switchSibling(turn, direction, place);
  };

  return (
    <div
      ref={ref}
      role="group"
      aria-label={`Version ${position} of ${fork.count} of this ${noun}`}
      aria-busy={isSwitching}
      className="flex items-center text-xs text-muted-foreground"
      data-testid="sibling-switcher"
      data-place={place}
    >
      <Button
        variant="ghost"
        size="icon-sm"
        className={actionButton}
        aria-label="Previous version"
        title={place === 'reply' ? 'Previous reply' : 'Previous version'}
        data-testid="sibling-prev"
        disabled={fork.index === 0 || isSwitching}
        onClick={() => press(-1)}
      >
        <ChevronLeft />
      </Button>
      <span className="min-w-7 text-center tabular-nums" data-testid="sibling-position" aria-live="polite">
        {position}/{fork.count}
      </span>
      <Button
        variant="ghost"
        size="icon-sm"
        className={actionButton}
        aria-label="Next version"
        title={place === 'reply' ? 'Next reply' : 'Next version'}
        data-testid="sibling-next"
        disabled={fork.index === fork.count - 1 || isSwitching}
        onClick={() => press(1)}
      >
        <ChevronRight />
      </Button>
    </div>
  );
}

/**
 * Scrolls so `el` stands at `top`, and keeps it there while the version that opened settles: rows
 * still growing (a reply's actions, the bar under the last reply) would otherwise push the arrows off
 * the place the person pressed, or leave them short of it where the list could not yet scroll that
 * far. Held until the person scrolls, touches or types, or SETTLE_MS has passed.
 */
function keepInPlace(el: HTMLElement, scroller: HTMLElement, top: number): void {
  const keep = () => {
    const delta = el.getBoundingClientRect().top - top;
    if (Math.abs(delta) >= 0.5) scroller.scrollTop += delta;
  };
  keep();
  const content = scroller.firstElementChild;
  if (!content || typeof ResizeObserver === 'undefined') return;
  const intents = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  const observer = new ResizeObserver(() => (el.isConnected ? keep() : stop()));
  const timer = setTimeout(() => stop(), SETTLE_MS);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    for (const intent of intents) scroller.removeEventListener(intent, stop);
  };
  observer.observe(content);
  for (const intent of intents) scroller.addEventListener(intent, stop, { passive: true });
}

function scrollParentOf(el: HTMLElement): HTMLElement | null {
  for (let node = el.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if ((overflowY === 'auto' || overflowY === 'scroll') && node.scrollHeight > node.clientHeight) return node;
  }
  return null;
}
