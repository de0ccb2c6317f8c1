/** Who is calling, once authenticated: a user, through a session cookie or an API token. */
export interface Actor {
  userId: string;
  via: 'session' | 'token';
}
