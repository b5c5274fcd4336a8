import { statusTag } from '../../../components/list-page/index.ts';

/** A collection order's status (spec section 4): `status.<value>` of the collection texts. */
export const COLLECTION_STATUS = statusTag({
  to_be_paid: 'processing',
  paid: 'success',
  closed: 'default',
  failed: 'error',
});

/** Whether a paid order's money has reached the balance yet. */
export const SETTLEMENT_STATUS = statusTag(
  { unsettled: 'default', pending_settlement: 'warning', settled: 'success' },
  'settlementStatus',
);
