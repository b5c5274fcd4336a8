import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { ensureLocalOperatorToken, LOCAL_TOKEN_FILE } from '../modules/ops/index.ts';
import { claimDataDir, readLiveServer, releaseDataDir } from './server-file.ts';

export type OpsRequest = {
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Answer the body's bytes (a screenshot) instead of parsing it as JSON. */
  raw?: boolean;
};
export type OpsResponse = { status: number; body: unknown; contentType?: string };

/** How the command line reaches the operator API: over HTTP, or in this process with the same routes. */
export type OpsTransport = {
  /** "http://127.0.0.1:8080 (running server, pid 123)" or "in-process (no server running)". */
  describe: string;
  request(request: OpsRequest): Promise<OpsResponse>;
  close(): Promise<void>;
};

export class TransportError extends Error {}

export function httpTransport(baseUrl: string, token: string, describe = baseUrl): OpsTransport {
  return {
    describe,
    async request({ method, path: urlPath, body, headers, raw }) {
      let response: Response;
      try {
        response = await fetch(new URL(urlPath, baseUrl), {
          method,
          headers: {
            accept: 'application/json',
            authorization: `Bearer ${token}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(120_000),
        });
      } catch (error) {
        throw new TransportError(`The server at ${describe} does not answer (${(error as Error).message}).`);
      }
      const contentType = response.headers.get('content-type') ?? undefined;
      if (raw && response.ok) {
        return { status: response.status, body: Buffer.from(await response.arrayBuffer()), contentType };
      }
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON: keep the text */
      }
      return { status: response.status, body: parsed };
    },
    close: async () => undefined,
  };
}

export function injectTransport(app: FastifyInstance, token: string, describe = 'in-process'): OpsTransport {
  return {
    describe,
    async request({ method, path: urlPath, body, headers, raw }) {
      const response = await app.inject({
        method,
        url: urlPath,
        headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...headers },
        ...(body ? { payload: body } : {}),
      });
      const contentType = response.headers['content-type']?.toString();
      if (raw && response.statusCode < 300) {
        return { status: response.statusCode, body: response.rawPayload, contentType };
      }
      let parsed: unknown = response.body;
      try {
        parsed = response.body ? JSON.parse(response.body) : null;
      } catch {
        /* not JSON */
      }
      return { status: response.statusCode, body: parsed };
    },
    close: async () => undefined,
  };
}

function readLocalToken(dataDir: string): string {
  const file = path.join(dataDir, LOCAL_TOKEN_FILE);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    throw new TransportError(
      `Cannot read the operator token ${file}: run the command as the account that runs the server.`,
    );
  }
}

/**
 * PAYDESK_OPS_URL + PAYDESK_OPS_TOKEN: that server. Else a server running on this DATA_DIR: over HTTP with
 * the local token (never opening its database beside it). Else: the app built in this process.
 */
export async function resolveTransport(
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
): Promise<OpsTransport> {
  if (env.PAYDESK_OPS_URL) {
    if (!env.PAYDESK_OPS_TOKEN)
      throw new TransportError('PAYDESK_OPS_URL needs PAYDESK_OPS_TOKEN (an operator token).');
    return httpTransport(env.PAYDESK_OPS_URL, env.PAYDESK_OPS_TOKEN);
  }
  const server = readLiveServer(config.dataDir);
  if (server?.role === 'server' && server.url) {
    return httpTransport(
      server.url,
      readLocalToken(config.dataDir),
      `${server.url} (running server, pid ${server.pid})`,
    );
  }
  if (server && (server.database === 'pglite' || !config.databaseUrl)) {
    const what = server.role === 'server' ? 'A server' : 'Another ops command';
    throw new TransportError(
      `${what} (pid ${server.pid}) is starting or busy with ${config.dataDir}; try again in a moment.`,
    );
  }

  const isPglite = !config.databaseUrl;
  if (isPglite) claimDataDir(config.dataDir, { role: 'ops', database: 'pglite' });
  try {
    const database = await openDatabase({
      url: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, 'pglite'),
      poolSize: 4,
      acquireTimeoutMs: config.db.acquireTimeoutMs,
      statementTimeoutMs: config.db.statementTimeoutMs,
    });
    await database.migrate();
    const token = await ensureLocalOperatorToken(database.db, config.dataDir);
    const app = await buildApp({ config, database, logger: false });
    await app.ready();
    const inject = injectTransport(app, token, `in-process (no server running, database: ${database.kind})`);
    return {
      ...inject,
      close: async () => {
        await app.close();
        await database.close();
        if (isPglite) releaseDataDir(config.dataDir);
      },
    };
  } catch (error) {
    if (isPglite) releaseDataDir(config.dataDir);
    throw error;
  }
}
