import { PROVIDERS, type Provider } from '@paydesk/shared/channels/providers.ts';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import type { AdapterSettings, ChannelAdapter } from './adapter.ts';
import { bankTransferAdapter } from './bank_transfer/index.ts';
import { manualAdapter } from './manual/index.ts';
import { razorpayAdapter } from './razorpay/index.ts';
import { sandboxAdapter } from './sandbox/index.ts';

// The registry (DESIGN 13): the one place that maps a provider's name to its adapter. A new provider is
// its name in packages/shared/src/channels/providers.ts, a folder here, and one line below.

const ADAPTERS: Record<Provider, ChannelAdapter> = {
  sandbox: sandboxAdapter,
  bank_transfer: bankTransferAdapter,
  manual: manualAdapter,
  razorpay: razorpayAdapter,
};

export { PROVIDERS, type Provider };

/**
 * Tests only: puts a stand-in in the place of a provider's adapter (an adapter that fails on purpose,
 * routing's failover tests) until the answered function puts the real one back.
 */
export function useAdapter(provider: Provider, adapter: ChannelAdapter): () => void {
  const real = ADAPTERS[provider];
  ADAPTERS[provider] = adapter;
  return () => {
    ADAPTERS[provider] = real;
  };
}

export const isProvider = (name: string): name is Provider => (PROVIDERS as readonly string[]).includes(name);

/** The adapter of a channel's provider; a name no adapter has is a bug (the database's check refuses it). */
export function adapterFor(provider: string): ChannelAdapter {
  if (!isProvider(provider)) throw new Error(`No channel adapter for the provider ${provider}.`);
  return ADAPTERS[provider];
}

export const allAdapters = (): ChannelAdapter[] => PROVIDERS.map((provider) => ADAPTERS[provider]);

/** Whether the provider's channels may serve objects of this mode (DESIGN 12: the sandbox is test only). */
export const providerServesMode = (provider: string, mode: Mode): boolean =>
  isProvider(provider) && ADAPTERS[provider].capabilities.modes.includes(mode);

/** Whether an open channel may take new orders on this server (its provider's rule). */
export const takesNewOrders = (channel: { provider: string }, settings: AdapterSettings): boolean =>
  adapterFor(channel.provider).acceptsOrders(settings);

/** The providers whose paid collections this server does not settle (settlement.run leaves them out). */
export const providersNotSettled = (settings: AdapterSettings): Provider[] =>
  PROVIDERS.filter((provider) => !ADAPTERS[provider].settles(settings));
