import { statusTag } from '../../../components/list-page/index.ts';

/** A refund's status (DESIGN 14): `status.<value>` of the refunds texts. */
export const REFUND_STATUS = statusTag({ processing: 'processing', succeeded: 'success', failed: 'error' });
