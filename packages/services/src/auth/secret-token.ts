// The secrets a link or a cookie carries (share links, invitations, study sessions): 256 random bits,
// base64url, shown once; only their sha-256 is stored and looked up.
import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: the secret a link or cookie carries. Only its hash is stored. */
export function mintSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The sha-256 (hex) a secret is stored and found by. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A minted token is base64url of 32 bytes: anything else is refused before a query. */
export function isSecretToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
