import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Db } from '../../db/client.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { operatorTokensRepository as tokens } from './operator-tokens.repository.ts';

export type Operator = { name: string; tokenId: number };

declare module 'fastify' {
  interface FastifyRequest {
    operator?: Operator;
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
 * Authorization: Bearer <operator token>. A named token acts as its operator; the machine's local token
 * (DATA_DIR/ops.token) acts as whoever X-Operator names, since only the server's own account can read it.
 */
export function createOperatorGuard({ db }: { db: Db }): preHandlerAsyncHookHandler {
  return async (request) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new AppError(401, 'An operator token is required (Authorization: Bearer <token>).');
    const token = await tokens.useLive(db, sha256Hex(match[1]));
    if (!token) throw new AppError(401, 'The operator token is not valid.');

    const claimed = request.headers[OPERATOR_HEADER];
    const named = typeof claimed === 'string' ? claimed.trim() : '';
    if (named && !OPERATOR_NAME.test(named)) {
      throw new AppError(422, 'The operator name may use letters, digits, spaces and . _ @ - (at most 64).');
    }
    if (!token.isLocal && named && named !== token.operatorName) {
      throw forbidden(`This token belongs to ${token.operatorName}.`);
    }
    request.operator = {
      name: token.isLocal ? named || token.operatorName : token.operatorName,
      tokenId: token.id,
    };
  };
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
  await tokens.insertIfAbsent(db, { operatorName: 'local', tokenHash, isLocal: true });
  const row = await tokens.findByHash(db, tokenHash);
  if (row?.revokedAt)
    throw new Error(`The local operator token in ${file} was revoked; delete the file to get a new one.`);
  return token;
}

/** A named operator's token; answered once, only its hash is kept. */
export async function createOperatorToken(db: Db, operatorName: string): Promise<string> {
  const token = randomToken(32);
  await tokens.insert(db, { operatorName, tokenHash: sha256Hex(token) });
  return token;
}
