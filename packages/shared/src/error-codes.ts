// The codes alone, without zod: the console's HTTP client is on its login route, which loads no zod.

/**
 * The error catalogue: every error answer carries one of these stable codes beside its English message.
 * Clients react to the code (the console maps each to its three languages in one place); the message is
 * for people reading logs and for clients written against Laravel's contract.
 */
export const ERROR_CODES = {
  // By status, when nothing more specific applies.
  badRequest: 'bad_request',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  conflict: 'conflict',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  csrfMismatch: 'csrf_mismatch',
  validationFailed: 'validation_failed',
  locked: 'locked',
  throttled: 'throttled',
  serverError: 'server_error',
  serviceUnavailable: 'service_unavailable',
  // Domain refusals.
  badCredentials: 'bad_credentials',
  passwordConfirmationRequired: 'password_confirmation_required',
  passwordIncorrect: 'password_incorrect',
  currentPasswordMismatch: 'current_password_mismatch',
  invalidCode: 'invalid_code',
  invalidRecoveryCode: 'invalid_recovery_code',
  emailTaken: 'email_taken',
  invalidTimeZone: 'invalid_time_zone',
  invalidCursor: 'invalid_cursor',
  valueOutOfRange: 'value_out_of_range',
  twoFactorRequired: 'two_factor_required',
  paymentPasswordRequired: 'payment_password_required',
  paymentPasswordIncorrect: 'payment_password_incorrect',
  paymentPasswordSameAsLogin: 'payment_password_same_as_login',
  paymentPasswordAlreadySet: 'payment_password_already_set',
  paymentLocked: 'payment_locked',
  insufficientFunds: 'insufficient_funds',
  invalidTransition: 'invalid_transition',
  idempotencyKeyReused: 'idempotency_key_reused',
  // Receive money and the gateway (DESIGN section 6).
  channelUnavailable: 'channel_unavailable',
  amountOutOfRange: 'amount_out_of_range',
  outTradeNoTaken: 'out_trade_no_taken',
  orderNotPayable: 'order_not_payable',
  signatureInvalid: 'signature_invalid',
  // A signing header missing or not of its form; the message names it (DESIGN 6, turn 3).
  signatureHeaderInvalid: 'signature_header_invalid',
  timestampOutOfWindow: 'timestamp_out_of_window',
  nonceReused: 'nonce_reused',
  unknownKey: 'unknown_key',
  ipNotAllowed: 'ip_not_allowed',
  merchantDisabled: 'merchant_disabled',
  invalidIpWhitelist: 'invalid_ip_whitelist',
  // Settings > Access key: the notify URL is saved with the key, so it needs one issued first.
  accessKeyNotIssued: 'access_key_not_issued',
  // Send money.
  possibleDuplicate: 'possible_duplicate',
  idempotencyKeyInFlight: 'idempotency_key_in_flight',
  // Withdrawals.
  invalidWalletAddress: 'invalid_wallet_address',
  // Top-ups (DESIGN 9: the screenshot).
  screenshotRequired: 'screenshot_required',
  screenshotTooLarge: 'screenshot_too_large',
  screenshotType: 'screenshot_type',
  screenshotDimensions: 'screenshot_dimensions',
  screenshotUnreadable: 'screenshot_unreadable',
  // Offline exports
  exportNotReady: 'export_not_ready',
  exportExpired: 'export_expired',
  exportNotRetryable: 'export_not_retryable',
  tooManyExports: 'too_many_exports',
  insufficientScope: 'insufficient_scope',
  tokenExpired: 'token_expired',
  sandboxDisabled: 'sandbox_disabled',
  twoFactorAlreadyConfirmed: 'two_factor_already_confirmed',
  // Live and test mode (DESIGN 12).
  modeInvalid: 'mode_invalid',
  liveOnly: 'live_only',
  testModeOnly: 'test_mode_only',
  testDataBusy: 'test_data_busy',
  // Real channels and reconciliation (DESIGN 13).
  statementInvalid: 'statement_invalid',
  reconciliationOpen: 'reconciliation_open',
  notBatchChannel: 'not_batch_channel',
  // Refunds (DESIGN 14).
  refundExceedsAmount: 'refund_exceeds_amount',
  invalidState: 'invalid_state',
  outRefundNoTaken: 'out_refund_no_taken',
  // Limits and risk rules (DESIGN 14): `limit` or `list` in the body names which.
  limitExceeded: 'limit_exceeded',
  blocked: 'blocked',
  // Payout approval (DESIGN 16): the user who made a payout cannot approve it.
  makerCannotApprove: 'maker_cannot_approve',
  // Settings > Team and invitations (DESIGN 16).
  lastRoot: 'last_root',
  teamSelfChange: 'team_self_change',
  invitationNotFound: 'invitation_not_found',
  invitationExpired: 'invitation_expired',
  invitationUsed: 'invitation_used',
  userDisabled: 'user_disabled',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
export const ERROR_CODE_VALUES = Object.values(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** The code an answer of this status carries when its cause has no code of its own. */
export function errorCodeOfStatus(status: number): ErrorCode {
  const byStatus: Record<number, ErrorCode> = {
    400: ERROR_CODES.badRequest,
    401: ERROR_CODES.unauthenticated,
    403: ERROR_CODES.forbidden,
    404: ERROR_CODES.notFound,
    405: ERROR_CODES.methodNotAllowed,
    409: ERROR_CODES.conflict,
    413: ERROR_CODES.payloadTooLarge,
    415: ERROR_CODES.unsupportedMediaType,
    419: ERROR_CODES.csrfMismatch,
    422: ERROR_CODES.validationFailed,
    423: ERROR_CODES.locked,
    429: ERROR_CODES.throttled,
    503: ERROR_CODES.serviceUnavailable,
  };
  return byStatus[status] ?? (status >= 500 ? ERROR_CODES.serverError : ERROR_CODES.badRequest);
}
