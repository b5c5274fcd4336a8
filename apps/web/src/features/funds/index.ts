// What the funds feature offers other features (eslint: paydesk/feature-door): the merchant's balance.
export { type Balance, useBalance } from './api/get-balance.ts';
