/**
 * Who is calling, once authenticated: a user, through a session cookie or an API token, or a
 * study's participant through their session cookie (an editor of one family, nothing else).
 */
export interface Actor {
  /** Omitted: a user. */
  kind?: 'user' | 'participant';
  /** A participant's stand-in identity (the record names them by it). */
  userId: string;
  via: 'session' | 'token' | 'participant';
  /** The better-auth session the request came with (`via: 'session'`). */
  sessionId?: string | undefined;
  /** The API token the request came with (`via: 'token'`). */
  tokenId?: string | undefined;
  /** A participant's pseudonymous id, their study and their family (`via: 'participant'`). */
  participant?: { participantId: string; studyId: string; familyId: string } | undefined;
}
