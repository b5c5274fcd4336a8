import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@paydesk/shared';
import type { Db, Tx } from '../../db/client.ts';
import { ValidationError } from '../../lib/errors.ts';
import { transactionWithRetry } from '../ledger/index.ts';
import { operatorOf } from './operator-auth.ts';
import { opsRepository as repo } from './ops.repository.ts';
import { IdempotencyKeyHeaderSchema } from './ops.schemas.ts';
import type { ActionContext, ActionResult } from './ops.service.ts';

// For operator commands that live in other modules (top-ups): the same record as the ops service's own
// commands (operator_actions: who, when, why, what) and the same Idempotency-Key replay.

/** The operator, the reason and the client's Idempotency-Key of a change. */
export function operatorContextOf(request: FastifyRequest, reason: string): ActionContext {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return { operator: operatorOf(request), reason };
  const parsed = IdempotencyKeyHeaderSchema.safeParse(header);
  if (!parsed.success) throw ValidationError.field('idempotency_key', parsed.error.issues[0].message);
  return { operator: operatorOf(request), reason, idempotencyKey: parsed.data };
}

/** 201 for a change made now; 200 with Idempotent-Replayed for a repeat of one made before. */
export function answerAction<T>(reply: FastifyReply, result: ActionResult<T>) {
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(result.replayed ? 200 : 201).send({ data: result.data });
}

const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

/**
 * Records one operator command in operator_actions (who, when, why, what), or finds the first answer of
 * a retry: the client's idempotency key makes a retried command answer it instead of acting twice.
 */
export async function claimOrReplay<T>(
  tx: Tx,
  action: string,
  context: ActionContext,
  request: Record<string, unknown>,
  merchantId: number | null,
): Promise<{ actionId: number } | { replay: T }> {
  const claimed = await repo.claimAction(tx, {
    operatorName: context.operator.name,
    action,
    merchantId,
    reason: context.reason,
    idempotencyKey: context.idempotencyKey ?? null,
    detail: { request },
  });
  if (claimed) return { actionId: claimed.id };
  const first = await repo.findActionByKey(tx, context.idempotencyKey!);
  if (!first || first.action !== action || first.detail?.result === undefined) {
    throw ValidationError.field(
      'idempotency_key',
      'This Idempotency-Key was used for another command.',
      ERROR_CODES.idempotencyKeyReused,
    );
  }
  // The same key with another body (another amount, say) is a client bug, not a retry (DESIGN 6).
  if (canonicalJson(first.detail.request) !== canonicalJson(request)) {
    throw ValidationError.field(
      'idempotency_key',
      'This Idempotency-Key was used with a different request.',
      ERROR_CODES.idempotencyKeyReused,
    );
  }
  return { replay: first.detail.result as T };
}

/**
 * Runs one operator command in one transaction with its operator_actions record; a retry with the same
 * Idempotency-Key answers the first result instead of acting twice.
 */
export async function runOperatorAction<T extends Record<string, unknown>>(
  db: Db,
  action: string,
  context: ActionContext,
  request: Record<string, unknown>,
  merchantId: number | null,
  work: (tx: Tx, actionId: number) => Promise<{ data: T; merchantId?: number }>,
): Promise<ActionResult<T>> {
  return transactionWithRetry(db, async (tx) => {
    const claimed = await claimOrReplay<T>(tx, action, context, request, merchantId);
    if ('replay' in claimed) return { data: claimed.replay, replayed: true };
    const done = await work(tx, claimed.actionId);
    await repo.completeAction(tx, claimed.actionId, {
      merchantId: done.merchantId ?? merchantId,
      detail: { request, result: done.data },
    });
    return { data: done.data, replayed: false };
  });
}
