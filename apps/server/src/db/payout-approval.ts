// SQL shared by modules (payout approval, DESIGN 16): the condition under which a gateway payout's
// one-statement write (DESIGN 8) may go ahead. While the merchant's gateway approval threshold is on and
// the payout's amount reaches it, it is false, and the payout takes the transactional way, where it is
// written in pending_approval.

/** True unless merchant `merchantIdSql` has a gateway approval threshold that `amountSql` reaches. */
export function noGatewayApprovalWhere(merchantIdSql: string, amountSql: string): string {
  return `not exists (select 1 from payout_approval_settings pa where pa.merchant_id = ${merchantIdSql}
                        and pa.gateway_threshold_minor > 0 and ${amountSql} >= pa.gateway_threshold_minor)`;
}
