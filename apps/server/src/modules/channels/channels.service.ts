import { channelsRepository } from './channels.repository.ts';

// What other modules do with channels: the operator opens, closes and lists them (modules/ops, the demo
// seed); an order reads the merchant's open channel of its kind (collections, payouts, the sandbox).
// The SQL stays in channels.repository.ts.

export const openChannel = channelsRepository.upsertOpen;
export const closeChannel = channelsRepository.close;
export const listChannelsOfMerchant = channelsRepository.listOfMerchant;
export const listAllChannels = channelsRepository.listAll;
export const findChannelById = channelsRepository.findById;
export const findOpenChannel = channelsRepository.findOpen;
