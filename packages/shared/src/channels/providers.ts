// The channel providers Paydesk has an adapter for (DESIGN 13): the one list the database's check, the
// adapter registry (apps/server/src/modules/channels/adapters/registry.ts) and the lint rule that keeps
// provider names out of every other file (eslint.config.js, paydesk/no-provider-name) read.
// Plain values only: eslint.config.js imports this file.

export const PROVIDERS = ['sandbox', 'bank_transfer', 'manual', 'razorpay'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The provider a channel opened without naming one gets: the built-in test channel. */
export const DEFAULT_PROVIDER: Provider = PROVIDERS[0];

/** How a sandbox channel finishes its orders: by hand (its checkout page, ops) or by itself. */
export const SANDBOX_MODES = ['manual', 'auto'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
