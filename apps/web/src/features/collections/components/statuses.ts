import type { StatusTag } from '../../../components/list-page/index.ts';

/** A collection order's status (spec section 4): `status.<value>` of the collection texts. */
export const COLLECTION_STATUS: StatusTag = {
  labels: 'status',
  colors: { to_be_paid: 'processing', paid: 'success', closed: 'default', failed: 'error' },
};

/** Whether a paid order's money has reached the balance yet. */
export const SETTLEMENT_STATUS: StatusTag = {
  labels: 'settlementStatus',
  colors: { unsettled: 'default', pending_settlement: 'warning', settled: 'success' },
};
