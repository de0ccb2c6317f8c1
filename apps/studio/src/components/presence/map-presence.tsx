'use client';
import { activePathGuide, type FamilyGraph } from '@trellis/domain';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { usePresenceContext, type PresencePerson } from './presence-context';

const MapPresenceContext = createContext<ReadonlyMap<string, PresencePerson[]>>(new Map());

/**
 * Places the family's people on the map's cards: a tab on path T at step k is on the node of T's
 * path at k (the path's latest step when k is null), which may be an ancestor's node.
 */
export function MapPresenceProvider({
  graph,
  children,
}: {
  graph: FamilyGraph | undefined;
  children: ReactNode;
}) {
  const presence = usePresenceContext();
  const people = presence?.people;
  const byNode = useMemo(() => {
    const out = new Map<string, PresencePerson[]>();
    if (!graph || !people) return out;
    const guides = new Map<string, Map<number, string> & { last?: string }>();
    const guideOf = (threadId: string) => {
      let guide = guides.get(threadId);
      if (!guide) {
        const steps = activePathGuide(graph, { displayedThreadId: threadId });
        guide = Object.assign(new Map(steps.map((s) => [s.turn_index, s.node_id])), {
          last: steps.at(-1)?.node_id,
        });
        guides.set(threadId, guide);
      }
      return guide;
    };
    for (const person of people) {
      const nodes = new Set<string>();
      for (const place of person.places) {
        if (!graph.threads.some((t) => t.thread_id === place.threadId)) continue;
        const guide = guideOf(place.threadId);
        const nodeId = place.turnIndex === null ? guide.last : guide.get(place.turnIndex);
        if (nodeId) nodes.add(nodeId);
      }
      for (const nodeId of nodes) out.set(nodeId, [...(out.get(nodeId) ?? []), person]);
    }
    return out;
  }, [graph, people]);
  return <MapPresenceContext.Provider value={byNode}>{children}</MapPresenceContext.Provider>;
}

const NOBODY: PresencePerson[] = [];

export function useNodePeople(nodeId: string): PresencePerson[] {
  return useContext(MapPresenceContext).get(nodeId) ?? NOBODY;
}
