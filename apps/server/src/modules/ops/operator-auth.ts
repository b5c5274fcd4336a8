import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { ERROR_CODES } from '@paydesk/shared';
import {
  OPERATOR_SCOPES,
  OPERATOR_TOKEN_DEFAULT_DAYS,
  type OperatorScope,
} from '@paydesk/shared/ops/operator-scopes.ts';
import type { Db } from '../../db/client.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { operatorTokensRepository as tokens } from './operator-tokens.repository.ts';

export type Operator = {
  name: string;
  tokenId: number;
  scopes: readonly OperatorScope[];
  /** When the token stops working; null for the machine's local token. */
  expiresAt: Date | null;
};

declare module 'fastify' {
  interface FastifyRequest {
    operator?: Operator;
  }
  interface FastifyContextConfig {
    /** The scope an /ops/v1 route's token must carry (set by the operator guard, never by hand). */
    operatorScope?: OperatorScope;
  }
}

export const LOCAL_TOKEN_FILE = 'ops.token';
export const OPERATOR_HEADER = 'x-operator';
const OPERATOR_NAME = /^[\p{L}\p{N} ._@-]{1,64}$/u;

export function operatorOf(request: FastifyRequest): Operator {
  if (!request.operator) throw new AppError(401, 'An operator token is required.');
  return request.operator;
}

/**
 * What every /ops/v1 route spreads into its options: the scope its token must carry, checked when the
 * request arrives (before its body is read), and declared in the route's config for the check below.
 */
export type OperatorGuard = (scope: OperatorScope) => {
  onRequest: onRequestAsyncHookHandler;
  config: { operatorScope: OperatorScope };
};

/**
 * Authorization: Bearer <operator token>. A named token acts as its operator; the machine's local token
 * (DATA_DIR/ops.token) acts as whoever X-Operator names, since only the server's own account can read it.
 * The token must be live on the app's clock and carry the route's scope.
 */
export function createOperatorGuard({ db, now }: { db: Db; now: () => Date }): OperatorGuard {
  async function authenticate(request: FastifyRequest): Promise<Operator> {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new AppError(401, 'An operator token is required (Authorization: Bearer <token>).');
    const tokenHash = sha256Hex(match[1]);
    const at = now();
    const token = await tokens.useLive(db, tokenHash, at);
    if (!token) {
      const known = await tokens.findByHash(db, tokenHash);
      if (known && !known.revokedAt && known.expiresAt && known.expiresAt <= at) {
        throw new AppError(
          401,
          `This operator token expired at ${known.expiresAt.toISOString()}: ask an admin for a new one.`,
          { code: ERROR_CODES.tokenExpired },
        );
      }
      throw new AppError(401, 'The operator token is not valid.');
    }

    const claimed = request.headers[OPERATOR_HEADER];
    const named = typeof claimed === 'string' ? claimed.trim() : '';
    if (named && !OPERATOR_NAME.test(named)) {
      throw new AppError(422, 'The operator name may use letters, digits, spaces and . _ @ - (at most 64).');
    }
    if (!token.isLocal && named && named !== token.operatorName) {
      throw forbidden(`This token belongs to ${token.operatorName}.`);
    }
    return {
      name: token.isLocal ? named || token.operatorName : token.operatorName,
      tokenId: token.id,
      scopes: token.scopes as OperatorScope[],
      expiresAt: token.expiresAt,
    };
  }

  return (scope) => ({
    config: { operatorScope: scope },
    onRequest: async (request) => {
      const operator = await authenticate(request);
      if (!operator.scopes.includes(scope)) throw insufficientScope([scope], operator.scopes);
      request.operator = operator;
    },
  });
}

/** 403 naming the scopes a token lacks. */
export function insufficientScope(needed: readonly OperatorScope[], held: readonly OperatorScope[]) {
  const missing = needed.filter((scope) => !held.includes(scope));
  const names = missing.map((scope) => `"${scope}"`).join(', ');
  return new AppError(
    403,
    `This operator token does not carry the ${names} scope${missing.length > 1 ? 's' : ''} ` +
      `(it has: ${held.join(', ')}); ask an admin for a token with ${missing.length > 1 ? 'them' : 'it'}.`,
    { code: ERROR_CODES.insufficientScope },
  );
}

/**
 * Every /ops/v1 route must declare the scope its token needs (through the guard): one registered without
 * stops the app at start, so a new operator route cannot be left open to every token.
 */
export function requireOperatorScopes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/ops/')) return;
    const scope = route.config?.operatorScope;
    if (!scope || !OPERATOR_SCOPES.includes(scope) || !route.onRequest) {
      const methods = [route.method].flat().join(',');
      throw new Error(
        `${methods} ${route.url} declares no operator scope: spread operator('<scope>') into it.`,
      );
    }
  });
}

/**
 * The machine's local operator token: DATA_DIR/ops.token (mode 0600), its hash in operator_tokens.
 * The server makes sure of it at start; the command line reads it to call the server.
 */
export async function ensureLocalOperatorToken(db: Db, dataDir: string): Promise<string> {
  const file = path.join(dataDir, LOCAL_TOKEN_FILE);
  let token = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (!token) {
    token = randomToken(32);
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, token + '\n', { mode: 0o600 });
  }
  chmodSync(file, 0o600);
  const tokenHash = sha256Hex(token);
  // The server's own account: every scope and no expiry (whoever reads the file can read DATA_DIR anyway).
  await tokens.insertIfAbsent(db, {
    operatorName: 'local',
    tokenHash,
    isLocal: true,
    scopes: [...OPERATOR_SCOPES],
    expiresAt: null,
  });
  const row = await tokens.findByHash(db, tokenHash);
  if (row?.revokedAt)
    throw new Error(`The local operator token in ${file} was revoked; delete the file to get a new one.`);
  return token;
}

/**
 * A named operator's token made without the API (scripts and tests); answered once, only its hash is kept.
 * By default every scope, expiring in 90 days, as tokens made before scopes existed.
 */
export async function createOperatorToken(
  db: Db,
  operatorName: string,
  {
    scopes = OPERATOR_SCOPES,
    expiresAt = new Date(Date.now() + OPERATOR_TOKEN_DEFAULT_DAYS * 86_400_000),
  }: { scopes?: readonly OperatorScope[]; expiresAt?: Date } = {},
): Promise<string> {
  const token = randomToken(32);
  await tokens.insert(db, { operatorName, tokenHash: sha256Hex(token), scopes: [...scopes], expiresAt });
  return token;
}
