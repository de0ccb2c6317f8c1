/** Who is calling, once authenticated: a user, through a session cookie or an API token. */
export interface Actor {
  userId: string;
  via: 'session' | 'token';
  /** The better-auth session the request came with (`via: 'session'`). */
  sessionId?: string | undefined;
  /** The API token the request came with (`via: 'token'`). */
  tokenId?: string | undefined;
}
