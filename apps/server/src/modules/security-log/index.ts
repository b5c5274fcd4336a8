// The security log: who signed in, changed a secret or moved a security setting, when and from where.
// Other modules record into it inside the transaction of the change (modules/security lists it).
export {
  EVENTS_COUNT_CAP,
  securityEventsRepository,
  type SecurityEvent,
  type SecurityEventFilter,
  type SecurityEventType,
} from './security-events.repository.ts';
