import type { SettlementCycle } from '@paydesk/shared/collections/collections.schemas.ts';

/** "T1" -> "T+1": the notation is the same in every language (settled the next business day). */
export const settlementCycleLabel = (cycle: SettlementCycle): string => cycle.replace(/^T/, 'T+');
