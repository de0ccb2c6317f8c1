'use client';
import { cn } from '@/lib/cn';
import { usePresenceContext, type PresencePerson } from './presence-context';
import { useNodePeople } from './map-presence';

/** A person's colour, the same on every screen (from their id); dark enough for white initials (AA). */
const COLOURS = ['#1d4ed8', '#047857', '#b45309', '#be185d', '#6d28d9', '#0f766e', '#b91c1c', '#4338ca'];

export function personColour(userId: string): string {
  let hash = 0;
  for (let i = 0; i < userId.length; i++) hash = (hash * 31 + userId.charCodeAt(i)) | 0;
  return COLOURS[Math.abs(hash) % COLOURS.length]!;
}

function initials(name: string): string {
  const words = name
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  return ((words[0]?.[0] ?? '?') + (words[1]?.[0] ?? '')).toUpperCase();
}

function describe(person: PresencePerson): string {
  return `${person.isMe ? `${person.name} (you)` : person.name}${person.isTyping ? ', typing' : ''}`;
}

function Avatar({ person, size }: { person: PresencePerson; size: 'md' | 'sm' }) {
  return (
    <span
      data-testid="presence-avatar"
      data-user-id={person.userId}
      data-typing={person.isTyping}
      title={describe(person)}
      style={{ backgroundColor: personColour(person.userId) }}
      className={cn(
        'grid shrink-0 place-items-center rounded-full font-semibold text-white ring-2 ring-background',
        size === 'md' ? 'size-6 text-[10px]' : 'size-4 text-[8px]',
        person.isTyping && 'outline outline-2 outline-offset-1 outline-current',
      )}
    >
      <span aria-hidden>{initials(person.name)}</span>
    </span>
  );
}

/** Who has the family open, in the header: one avatar per person, the typing ones ringed. */
export function PresenceAvatars() {
  const context = usePresenceContext();
  const people = context?.people ?? [];
  if (people.length === 0) return null;
  return (
    <div
      role="group"
      aria-label={`Here now: ${people.map(describe).join('; ')}`}
      data-testid="presence-avatars"
      className="flex shrink-0 items-center -space-x-1.5"
    >
      {people.map((person) => (
        <Avatar key={person.userId} person={person} size="md" />
      ))}
    </div>
  );
}

/** The people on one step of the map. */
export function CardPresence({ nodeId }: { nodeId: string }) {
  const people = useNodePeople(nodeId);
  if (people.length === 0) return null;
  return (
    <span data-testid="card-presence" className="ml-auto flex items-center -space-x-1">
      <span className="sr-only">, here: {people.map(describe).join(', ')}</span>
      {people.map((person) => (
        <Avatar key={person.userId} person={person} size="sm" />
      ))}
    </span>
  );
}

/** "Ana is typing…" above the live document, for anyone but this tab. */
export function TypingNote({ threadId }: { threadId: string }) {
  const context = usePresenceContext();
  const typing = context?.typingIn(threadId) ?? [];
  return (
    <p
      data-testid="document-typing"
      aria-live="polite"
      className="min-h-4 px-1 text-[11px] text-muted-foreground"
    >
      {typing.length === 0
        ? ''
        : `${typing.map((p) => (p.isMe ? 'You (another tab)' : p.name)).join(', ')} ${typing.length === 1 ? 'is' : 'are'} typing…`}
    </p>
  );
}
