// Callbacks to merchants' servers (DESIGN section 6): the outbox, Standard Webhooks delivery, retries, log.
export {
  createCallbacksService,
  type CallbacksService,
  type EnqueueInput,
  firstDelivery,
  type MerchantCallbackSettings,
} from './callbacks.service.ts';
