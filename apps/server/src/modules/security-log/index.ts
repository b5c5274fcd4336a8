// The security log: who signed in, changed a secret or moved a security setting, when and from where.
// Other modules record into it inside the transaction of the change (modules/security lists it).
export type { SecurityEvent, SecurityEventFilter, SecurityEventType } from './security-events.repository.ts';
export {
  countSecurityEvents,
  lastSignInsOf,
  listSecurityEvents,
  recordSecurityEvent,
} from './security-log.service.ts';
