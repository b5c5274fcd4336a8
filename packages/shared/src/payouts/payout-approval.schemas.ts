import { z } from 'zod';
import { CurrencySchema } from '../money.ts';
import { ModeSchema } from '../modes/modes.schemas.ts';
import { StepUpFieldsSchema } from '../security/security.schemas.ts';

// Payout approval (DESIGN 16): ROOT sets, per merchant and mode, the amount from which a console payout
// and (separately) a gateway payout waits in pending_approval with its amount held, until another user
// with payout:approve approves it (payment password and Google code) or rejects it (a reason).

/** A threshold as typed: a non-negative decimal amount of the merchant's currency; "0" is off. */
const thresholdField = (field: string) =>
  z
    .string({ error: `The ${field.replace(/_/g, ' ')} field is required and must be an amount.` })
    .trim()
    .regex(
      /^\d{1,15}(\.\d{1,6})?$/,
      `The ${field.replace(/_/g, ' ')} must be an amount of 0 or more (0 turns approval off).`,
    );

// PUT /api/merchant/payout-approval (ROOT: payout-approval:manage), with both factors.
export const PayoutApprovalSettingsBodySchema = z.object({
  payout_approval_threshold: thresholdField('payout_approval_threshold'),
  gateway_payout_approval_threshold: thresholdField('gateway_payout_approval_threshold'),
});
export type PayoutApprovalSettingsBody = z.infer<typeof PayoutApprovalSettingsBodySchema>;
export const UpdatePayoutApprovalBodySchema = PayoutApprovalSettingsBodySchema.extend(
  StepUpFieldsSchema.shape,
);

// GET /api/merchant/payout-approval: the settings of the mode the console is in (X-Mode).
export const PayoutApprovalSettingsSchema = z.object({
  mode: ModeSchema,
  currency: CurrencySchema,
  /** Console payouts at or above it wait for approval; "0.00" is off. */
  payout_approval_threshold: z.string(),
  /** Gateway payouts at or above it wait for approval; "0.00" is off. */
  gateway_payout_approval_threshold: z.string(),
  updated_at: z.string().nullable(),
});
export type PayoutApprovalSettings = z.infer<typeof PayoutApprovalSettingsSchema>;
export const PayoutApprovalSettingsResponseSchema = z.object({ data: PayoutApprovalSettingsSchema });

// POST /api/merchant/payouts/{trade_no}/approve: the approver's payment password and Google code.
export const ApprovePayoutBodySchema = StepUpFieldsSchema;
// POST /api/merchant/payouts/{trade_no}/reject: why (it becomes the payout's failure_reason).
export const RejectPayoutBodySchema = z.object({
  reason: z
    .string({ error: 'The reason field is required.' })
    .trim()
    .min(1, 'The reason field is required.')
    .max(255, 'The reason field must not be greater than 255 characters.'),
});
export type RejectPayoutBody = z.infer<typeof RejectPayoutBodySchema>;
