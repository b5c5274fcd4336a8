import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type { SessionCheck } from './auth-context.ts';

// What a request's code reads about the request without being handed it: the list code several layers
// below a route carries a remembered session's confirmation (SessionCheck) in its own statement, and no
// signature between the route and the SQL names it. Each request runs in a store of its own
// (AsyncLocalStorage); code outside a request (jobs, the export worker, tests calling a repository) reads
// an empty one. A mail written because of a request links back to the console at the address the request
// reached (its origin) when PUBLIC_URL is not set.

type RequestStore = { sessionCheck?: SessionCheck; origin?: string };

const storage = new AsyncLocalStorage<RequestStore>();

/**
 * Opens the request's store in its first hook: every later hook and the handler run in it (a body read on
 * the socket's events too: request-context.test.ts).
 */
export function registerRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) =>
    storage.run({ origin: `${request.protocol}://${request.host}` }, done),
  );
}

/** Set by the session module on a pure read on a remembered session (see SessionCheck). */
export function setRequestSessionCheck(check: SessionCheck): void {
  const store = storage.getStore();
  if (store) store.sessionCheck = check;
}

/** The request's session confirmation that a read may carry in its statement, if there is one. */
export const requestSessionCheck = (): SessionCheck | undefined => storage.getStore()?.sessionCheck;

/** "https://host:port" the request reached; none outside a request (a job, a worker, the ops CLI). */
export const currentRequestOrigin = (): string | undefined => storage.getStore()?.origin;
