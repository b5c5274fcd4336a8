import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

type Body = InjectOptions['payload'] | Record<string, unknown>;

/**
 * A browser-like client over app.inject: keeps cookies, and sends X-XSRF-TOKEN from the
 * XSRF-TOKEN cookie on unsafe requests, the way the console's HTTP client does.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  ip = '127.0.0.1';
  /** Sent as X-Mode on every call when set, as the console does in test mode (DESIGN 12). */
  mode: 'live' | 'test' | undefined;
  private readonly app: FastifyInstance;

  constructor(app: FastifyInstance) {
    this.app = app;
  }

  get sessionCookie(): string | undefined {
    return this.cookies.get('paydesk_session');
  }

  async request(
    method: InjectOptions['method'],
    url: string,
    options: { body?: Body; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(this.mode ? { 'x-mode': this.mode } : {}),
      ...options.headers,
    };
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(String(method));
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (unsafe && options.csrf !== false && xsrf && !('x-xsrf-token' in headers))
      headers['x-xsrf-token'] = xsrf;
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const response = await this.app.inject({
      method,
      url,
      headers,
      remoteAddress: this.ip,
      ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
    });
    for (const cookie of response.cookies) {
      const expired = cookie.expires && new Date(cookie.expires).getTime() <= Date.now();
      if (expired || cookie.maxAge === 0 || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, { headers });
  post = (url: string, body?: Body, headers?: Record<string, string>) =>
    this.request('POST', url, { body, headers });
  put = (url: string, body?: Body, headers?: Record<string, string>) =>
    this.request('PUT', url, { body, headers });
  delete = (url: string, body?: Body) => this.request('DELETE', url, { body });

  async csrf(): Promise<void> {
    await this.get('/api/csrf-cookie');
  }

  async login(email: string, password: string): Promise<LightMyRequestResponse> {
    if (!this.cookies.has('XSRF-TOKEN')) await this.csrf();
    return this.post('/api/login', { email, password });
  }
}

/** A logged-in client; fails the test loudly if the login did not work. */
export async function loginAs(app: FastifyInstance, email: string, password: string): Promise<TestClient> {
  const client = new TestClient(app);
  const response = await client.login(email, password);
  if (response.statusCode !== 200)
    throw new Error(`login as ${email} failed: ${response.statusCode} ${response.body}`);
  return client;
}
