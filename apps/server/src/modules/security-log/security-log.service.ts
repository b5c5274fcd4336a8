import { lastLoginsOf, securityEventsRepository } from './security-events.repository.ts';

// What other modules do with the security log. A change records its event inside its own transaction,
// so the change and its event commit together; modules/security lists and counts them for the console.

export const recordSecurityEvent = securityEventsRepository.record;
export const listSecurityEvents = securityEventsRepository.list;
export const countSecurityEvents = securityEventsRepository.count;
/** Each user's last sign-in (Settings > Team). */
export const lastSignInsOf = lastLoginsOf;
