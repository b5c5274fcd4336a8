import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { AccessKeyService } from '../access-key/index.ts';
import type { SettlementsService } from '../collections/index.ts';
import { createLedger } from '../ledger/index.ts';
import type { SandboxService } from '../sandbox/index.ts';
import type { WithdrawalsService } from '../withdrawals/index.ts';
import { createOperatorGuard, requireOperatorScopes } from './operator-auth.ts';
import { opsRoutes } from './ops.routes.ts';
import { createOpsService } from './ops.service.ts';

export {
  actionRefNo,
  claimOperatorAction,
  findMerchantByNo,
  hasMerchants,
  merchantIdByNo,
  insertMerchant,
} from './ops.service.ts';
/** The operator API's request and response shapes, shared with the ops command line. */
export * from './ops.schemas.ts';
export {
  createOperatorToken,
  ensureLocalOperatorToken,
  LOCAL_TOKEN_FILE,
  OPERATOR_HEADER,
} from './operator-auth.ts';

/** The operator API (/ops/v1), authenticated by operator tokens (DESIGN section 10). */
export function registerOpsModule(
  app: FastifyInstance,
  { db, now, config }: AppContext,
  {
    settlements,
    sandbox,
    accessKeys,
    withdrawals,
  }: {
    settlements: SettlementsService;
    sandbox: SandboxService;
    accessKeys: AccessKeyService;
    withdrawals: WithdrawalsService;
  },
): void {
  // Before any /ops/v1 route (this module's and the top-ups' after it): each must name its token's scope.
  requireOperatorScopes(app);
  const ops = createOpsService({
    db,
    now,
    ledger: createLedger(),
    settlements,
    sandbox,
    accessKeys,
    withdrawals,
    appKey: config.appKey,
  });
  opsRoutes(app, {
    ops,
    operator: createOperatorGuard({ db, now }),
    sandboxEnabled: config.sandboxEnabled,
  });
}
export { createOperatorGuard, operatorOf, type Operator, type OperatorGuard } from './operator-auth.ts';
export type { ActionContext, ActionResult } from './ops.service.ts';
export { answerAction, operatorContextOf, runOperatorAction } from './operator-action.ts';
