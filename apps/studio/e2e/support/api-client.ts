// A small HTTP client for API flows: a cookie jar for browser-like sessions and
// bearer tokens for REST clients.
export class ApiClient {
  private cookie = '';

  constructor(
    readonly baseUrl: string,
    private readonly bearer?: string,
  ) {}

  withToken(token: string): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  async signUp(email: string, password = 'correct horse battery'): Promise<void> {
    const response = await this.request('POST', '/api/auth/sign-up/email', { email, password, name: 'API User' });
    if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const init: RequestInit = {
      method,
      headers: {
        origin: this.baseUrl,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.bearer ? { authorization: `Bearer ${this.bearer}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      // Bytes (a zip) go as they are; pass their content-type in `headers`.
      body: body === undefined ? undefined : typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body),
      redirect: 'manual',
    };
    const response = await fetch(`${this.baseUrl}${path}`, init);
    const setCookies = response.headers.getSetCookie();
    if (setCookies.length > 0) {
      const jar = new Map(this.cookie.split('; ').filter(Boolean).map((c) => c.split('=') as [string, string]));
      for (const c of setCookies) {
        const [pair] = c.split(';');
        const [name, ...rest] = pair!.split('=');
        jar.set(name!, rest.join('='));
      }
      this.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    return response;
  }

  async json<T = unknown>(method: string, path: string, body?: unknown, expectStatus = 200): Promise<T> {
    const response = await this.request(method, path, body);
    const text = await response.text();
    if (response.status !== expectStatus) {
      throw new Error(`${method} ${path}: expected ${expectStatus}, got ${response.status}: ${text}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
