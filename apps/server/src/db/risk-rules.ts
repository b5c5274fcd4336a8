import type { LimitKind } from '@paydesk/shared/limits/limits.schemas.ts';

// SQL shared by modules (limits, DESIGN 14): the condition under which another module's one-statement write (a
// gateway collection or payout on a remembered channel, DESIGN 8) may go ahead without the limits' checks.
// While the merchant has a limit of the kind or an entry on the kind's block list it is false, and the
// order takes the transactional way, where LimitsService.enforce runs.

const LIST_OF_KIND: Record<Exclude<LimitKind, 'withdrawal'>, string> = {
  collection: 'payer_ip',
  payout: 'payee_account',
};

/** True while merchant `merchantIdSql` (an SQL expression) has no limit or block entry of this kind. */
export function noRiskRulesWhere(kind: Exclude<LimitKind, 'withdrawal'>, merchantIdSql: string): string {
  return `not exists (select 1 from merchant_limits rl where rl.merchant_id = ${merchantIdSql} and rl.kind = '${kind}')
      and not exists (select 1 from merchant_blocks rb where rb.merchant_id = ${merchantIdSql}
                        and rb.list = '${LIST_OF_KIND[kind]}')`;
}
