// Callbacks to merchants' servers (DESIGN section 6): the outbox, Standard Webhooks delivery, retries, log,
// and the console's webhook deliveries (undelivered events, resent one by one or in bulk).
export { callbacksConsoleRoutes } from './callbacks.routes.ts';
export {
  createCallbacksService,
  type CallbacksService,
  type EnqueueInput,
  firstDelivery,
  type MerchantCallbackSettings,
} from './callbacks.service.ts';
