import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '@paydesk/shared';
import { hmacHex, randomToken, safeEqual } from '../lib/crypto.ts';
import { AppError } from '../lib/errors.ts';
import { cookieOptions } from './cookies.ts';
import { isApiRequest } from './api-route.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// The Sanctum contract: the XSRF-TOKEN cookie (readable by script) comes back as X-XSRF-TOKEN.
// The token is signed with APP_KEY and bound to the session cookie it was issued with, so a token
// planted before login is useless after it.
const sign = (appKey: Buffer, nonce: string, sessionId: string | null) =>
  hmacHex(appKey, `xsrf|${nonce}|${sessionId ?? 'guest'}`);

export function issueXsrfCookie(appKey: Buffer, request: FastifyRequest, reply: FastifyReply): void {
  const nonce = randomToken(16);
  const token = `${nonce}.${sign(appKey, nonce, request.sessionCookieId)}`;
  reply.setCookie(XSRF_COOKIE, token, cookieOptions(request, false));
}

/** decodeURIComponent, or null for a malformed escape ("%", "%E0%A4%A") instead of a URIError. */
function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

function isValid(appKey: Buffer, request: FastifyRequest): boolean {
  const header = request.headers['x-xsrf-token'];
  const cookie = request.cookies[XSRF_COOKIE];
  if (typeof header !== 'string' || !cookie) return false;
  // Axios sends the cookie's value URL-decoded; accept either spelling.
  const sent = header.includes('%') ? safeDecode(header) : header;
  if (sent === null || !safeEqual(sent, cookie)) return false;
  const [nonce, signature] = cookie.split('.');
  if (!nonce || !signature) return false;
  return safeEqual(signature, sign(appKey, nonce, request.sessionCookieId));
}

export function registerCsrf(app: FastifyInstance, { appKey }: { appKey: Buffer }) {
  app.addHook('onRequest', async (request) => {
    if (!UNSAFE.has(request.method) || !isApiRequest(request)) return;
    if (!isValid(appKey, request)) throw new AppError(419, MESSAGES.csrfMismatch);
  });
}
