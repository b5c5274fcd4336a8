import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayMerchant, gatewayCall } from '../factories/gateway.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Issue 33 item 4: behind a proxy the client's address is the last X-Forwarded-For entry that a trusted
// proxy added, never an entry the client wrote itself. A client who sends "X-Forwarded-For: 127.0.0.1"
// through the proxy arrives as "127.0.0.1, <its real address>".

const PROXY = '10.0.0.5';
const ATTACKER = '203.0.113.9';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

/** A signed gateway read of a merchant whitelisted for 127.0.0.1 only, through the proxy. */
async function gatewayReadThroughProxy(trustProxy: string, forwardedFor: string) {
  ctx = await createTestApp({ TRUST_PROXY: trustProxy });
  const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { whitelist: ['127.0.0.1'] });
  return gatewayCall(ctx.app, m, 'GET', '/gateway/v1/collections?out_trade_no=NONE', {
    ip: PROXY,
    headers: { 'x-forwarded-for': forwardedFor },
  });
}

describe('the client address behind a proxy', () => {
  it('with TRUST_PROXY=1, a forged leftmost X-Forwarded-For entry does not pass the IP whitelist', async () => {
    const answer = await gatewayReadThroughProxy('1', `127.0.0.1, ${ATTACKER}`);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({
      code: 'ip_not_allowed',
      message: `The IP address ${ATTACKER} is not in the merchant's whitelist.`,
    });
  });

  it('with TRUST_PROXY=1, the address the proxy saw is the one checked', async () => {
    const answer = await gatewayReadThroughProxy('1', '127.0.0.1');
    // Past the whitelist: the order is simply not there.
    expect(answer.statusCode, answer.body).toBe(404);
  });

  it('with a CIDR list, every trusted proxy is skipped and a forged entry still is not the client', async () => {
    const forged = await gatewayReadThroughProxy('192.168.0.0/16, 10.0.0.0/8', `127.0.0.1, ${ATTACKER}`);
    expect(forged.statusCode).toBe(403);
    expect(forged.json().message).toContain(ATTACKER);
    await ctx!.close();
    // The client went through two trusted proxies (192.168.3.4 forwarded to 10.0.0.5).
    const real = await gatewayReadThroughProxy('192.168.0.0/16,10.0.0.0/8', '127.0.0.1, 192.168.3.4');
    expect(real.statusCode, real.body).toBe(404);
  });

  it('with TRUST_PROXY=1, rotating X-Forwarded-For does not escape the per-IP ceiling', async () => {
    ctx = await createTestApp({ TRUST_PROXY: '1', API_RATE_PER_MINUTE: '3' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await ctx.app.inject({
        method: 'GET',
        url: '/healthz',
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}, ${ATTACKER}` },
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
