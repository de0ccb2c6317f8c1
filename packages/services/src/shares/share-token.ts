import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: the secret a link carries. Only its hash is stored. */
export function mintShareToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashShareToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Where a link's reader lands. */
export function shareUrl(token: string): string {
  return `/s/${token}`;
}

/** Tokens are base64url of 32 bytes: anything else is refused before a query. */
export function isShareToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
