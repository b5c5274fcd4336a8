import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { createAccountService } from './account.service.ts';
import { createPasswordConfirmation } from './password-confirmation.ts';
import { createPaymentPasswordService } from './payment-password.service.ts';
import { securityRoutes } from './security.routes.ts';
import { createTwoFactorService } from './two-factor.service.ts';

export { stepUpInputOf, verifyStepUp } from './step-up.ts';
export { parseInput } from './validation.ts';
export { CODE_FAILURES_PER_DAY } from './failure-limits.ts';
export { CHALLENGE_FAILURES_PER_HOUR, CHALLENGE_TRIES_PER_MINUTE } from './two-factor.service.ts';

/** Account security: two-factor, password confirmation, profile, passwords, sessions, security log. */
export function registerSecurityModule(
  app: FastifyInstance,
  { db, config, guards, sessions, notifications, now }: AppContext,
): void {
  const appKey = config.appKey;
  securityRoutes(app, {
    db,
    guards,
    appKey,
    confirmation: createPasswordConfirmation({ db }),
    sessions,
    twoFactor: createTwoFactorService({ db, appKey, notifications, now }),
    account: createAccountService({ db }),
    paymentPassword: createPaymentPasswordService({ db, appKey, notifications, now }),
  });
}
