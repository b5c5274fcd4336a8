// @paydesk/node-client: the Paydesk gateway from Node.js, with no dependencies beyond Node's own.
export {
  Paydesk,
  type IdempotentCallOptions,
  type PaydeskOptions,
  type ResponseInfo,
  type WithResponse,
} from './client.ts';
export {
  PaydeskAuthenticationError,
  PaydeskConflictError,
  PaydeskConnectionError,
  PaydeskError,
  PaydeskInvalidRequestError,
  PaydeskNotFoundError,
  PaydeskPermissionError,
  PaydeskRateLimitError,
  PaydeskServerError,
  PaydeskWebhookVerificationError,
} from './errors.ts';
export { newNonce, signingHeaders, signRequest, stringToSign, type SignedRequest } from './signing.ts';
export type * from './types.ts';
export { signWebhook, verifyWebhook, type VerifyOptions, type WebhookHeaders } from './webhooks.ts';
export type { paths as GatewayPaths } from './openapi.ts';
