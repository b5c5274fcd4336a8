import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { SessionCheck } from './auth-context.ts';
import { registerRequestContext, requestSessionCheck, setRequestSessionCheck } from './request-context.ts';

// The session confirmation a list carries in its statement reaches the list code through the request's
// context, not through signatures: it must be the request's own, in its handler whatever the request
// carries (a body is read on the socket's events), and nobody else's.

const checkNamed = (name: string): SessionCheck => ({
  take: () => ({ select: {} as never, id: name }),
  settle: () => {},
});

async function app() {
  const app = Fastify();
  registerRequestContext(app);
  app.addHook('onRequest', async (request) => {
    const name = request.headers['x-session'];
    if (typeof name === 'string') setRequestSessionCheck(checkNamed(name));
  });
  const seen = async () => {
    // After an await, as a repository would read it.
    await new Promise((resolve) => setImmediate(resolve));
    return { session: requestSessionCheck()?.take()?.id ?? null };
  };
  app.get('/read', seen);
  app.post('/write', seen);
  await app.ready();
  return app;
}

describe('the request context', () => {
  it("gives a handler its own request's session check, with or without a body, and none to another", async () => {
    const server = await app();
    const answers = await Promise.all([
      server.inject({ method: 'GET', url: '/read', headers: { 'x-session': 'a' } }),
      server.inject({
        method: 'POST',
        url: '/write',
        headers: { 'x-session': 'b' },
        payload: { big: 'x'.repeat(100_000) },
      }),
      server.inject({ method: 'GET', url: '/read' }),
    ]);
    expect(answers.map((a) => a.json())).toEqual([{ session: 'a' }, { session: 'b' }, { session: null }]);
    await server.close();
  });

  it('reaches the handler of a body sent over a real socket (read on its events, outside the first hooks)', async () => {
    const server = await app();
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const answer = await fetch(`${url}/write`, {
        method: 'POST',
        headers: { 'x-session': 'c', 'content-type': 'application/json' },
        body: JSON.stringify({ big: 'x'.repeat(200_000) }),
      });
      expect(await answer.json()).toEqual({ session: 'c' });
    } finally {
      await server.close();
    }
  });

  it('is empty outside a request (jobs, the export worker)', () => {
    setRequestSessionCheck(checkNamed('nobody'));
    expect(requestSessionCheck()).toBeUndefined();
  });
});
