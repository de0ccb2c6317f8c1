'use client';
import { useEffect, useState, type RefObject } from 'react';
import { stepInView } from '@/components/trajectory/overview';

const USER_MESSAGES = '[data-testid="message-user"][data-turn]';

/**
 * The step whose user message the chat shows (the earliest one in view), watched with an
 * IntersectionObserver on the chat's user messages; null while none is in view. The trajectory follows
 * it. New rows are picked up as the transcript grows (a MutationObserver; rows already watched are left
 * alone, so streamed tokens cost a query, not a re-observe).
 */
export function useStepInView(ref: RefObject<HTMLElement | null>): number | null {
  const [turn, setTurn] = useState<number | null>(null);
  useEffect(() => {
    const root = ref.current;
    if (root === null || typeof IntersectionObserver === 'undefined') return;
    const visible = new Map<Element, number>();
    const watched = new Set<Element>();
    const intersection = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const step = Number(entry.target.getAttribute('data-turn'));
        if (entry.isIntersecting && Number.isInteger(step)) visible.set(entry.target, step);
        else visible.delete(entry.target);
      }
      setTurn(stepInView(visible.values()));
    });
    const scan = () => {
      const rows = new Set(root.querySelectorAll(USER_MESSAGES));
      for (const row of rows) {
        if (watched.has(row)) continue;
        watched.add(row);
        intersection.observe(row);
      }
      for (const row of watched) {
        if (rows.has(row)) continue;
        watched.delete(row);
        visible.delete(row);
        intersection.unobserve(row);
      }
    };
    scan();
    const mutations = new MutationObserver(scan);
    mutations.observe(root, { childList: true, subtree: true });
    return () => {
      mutations.disconnect();
      intersection.disconnect();
    };
  }, [ref]);
  return turn;
}
