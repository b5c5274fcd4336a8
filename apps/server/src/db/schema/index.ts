export * from './merchants.ts';
export * from './auth.ts';
export * from './ledger.ts';
export * from './ops.ts';
export * from './collections.ts';
export * from './payouts.ts';
