import { type Currency, ERROR_CODES, fromMinor, toMinor } from '@paydesk/shared';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import {
  COUNTRIES,
  type Country,
  CURRENCY_OF_COUNTRY,
} from '@paydesk/shared/collections/collections.schemas.ts';
import type { Db, Tx } from '../../db/client.ts';
import { encrypt, randomToken, sha256Hex } from '../../lib/crypto.ts';
import { conflict, notFound, ValidationError } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/password.ts';
import type { FundFlowRow, Ledger } from '../ledger/index.ts';
import {
  HoldClosedError,
  sqlStateOf,
  transactionWithRetry,
  trialBalance,
  verifyLedger,
} from '../ledger/index.ts';
import { findUserByEmail, insertUser } from '../users/index.ts';
import {
  closeChannel as closeChannelRow,
  lowestChannelPriority,
  setChannelRoute,
  listAllChannels,
  listChannelsOfMerchant,
  adapterFor,
  findOpenOrClosedChannel,
  openChannel as openChannelRow,
  openChannelSecrets,
  percentToPpm,
  presentChannel,
  providerServesMode,
} from '../channels/index.ts';
import type { AccessKeyService } from '../access-key/index.ts';
import type { SettlementsService } from '../collections/index.ts';
import type { SandboxService } from '../sandbox/index.ts';
import type { Decision, WithdrawalRow, WithdrawalsService } from '../withdrawals/index.ts';
import { creditStartingTestFunds } from '../test-data/index.ts';
import { claimOrReplay, runOperatorAction } from './operator-action.ts';
import { insufficientScope, type Operator } from './operator-auth.ts';
import { type MerchantRow, opsRepository as repo } from './ops.repository.ts';
import { operatorTokensRepository as tokens, type OperatorTokenRow } from './operator-tokens.repository.ts';
import type {
  CloseChannelBody,
  RouteChannelBody,
  OpenChannelBody,
  SandboxCompleteBody,
  CreateMerchantBody,
  CreateOperatorTokenBody,
  CreateUserBody,
  DemoCollectionBody,
  DemoPayoutBody,
  MoveFundsBody,
  RevokeOperatorTokenBody,
  UnfreezeBody,
  ListWithdrawalsQuery,
  PayWithdrawalBody,
  RejectWithdrawalBody,
  WithdrawalDecisionBody,
} from './ops.schemas.ts';
import { expiresInMs } from './ops.schemas.ts';

type Deps = {
  db: Db;
  /** The app's clock: token expiry, demo signatures. */
  now: () => Date;
  ledger: Pick<Ledger, 'post' | 'hold' | 'release' | 'balanceOf' | 'findHold'>;
  settlements: Pick<SettlementsService, 'run' | 'present'>;
  sandbox: Pick<SandboxService, 'assertEnabled' | 'complete' | 'isEnabled'>;
  /** APP_KEY: channels' secrets are kept encrypted under it. */
  appKey: Buffer;
  accessKeys: Pick<AccessKeyService, 'credentialsOf'>;
  withdrawals: Pick<WithdrawalsService, 'findAny' | 'decide' | 'listForOps' | 'present'>;
};

/** Who asks, why, and the client's key for this one command (a retry with it replays the answer). */
export type ActionContext = { operator: Operator; reason: string; idempotencyKey?: string };

export type ActionResult<T> = { data: T; replayed: boolean };

/** What one demo order's gateway call answered (ops demo:traffic counts these). */
export type DemoOrderResult = {
  gateway_status: number;
  trade_no: string | null;
  code: string | null;
  message: string | null;
};

/** What a demo order is signed with: the merchant's number, key and secret, and the time of signing. */
export type DemoSigning = {
  merchantNo: string;
  accessKey: string;
  secret: string;
  currency: Currency;
  timestamp: number;
};

/** The number a merchant sees on the fund flow entries an operator action caused. */
export const actionRefNo = (actionId: number) => `OA${String(actionId).padStart(8, '0')}`;

const currencyOf = (merchant: MerchantRow) => merchant.currency as Currency;

const countryOfCurrency = (currency: Currency): Country | undefined =>
  COUNTRIES.find((country) => CURRENCY_OF_COUNTRY[country] === currency);

const presentMerchant = (m: MerchantRow) => ({
  no: m.no,
  mode: m.mode,
  name: m.name,
  currency: currencyOf(m),
  status: m.status,
  created_at: m.createdAt.toISOString(),
});

const presentBalance = (availableMinor: bigint, lockedMinor: bigint, currency: Currency) => ({
  total: fromMinor(availableMinor + lockedMinor, currency),
  available: fromMinor(availableMinor, currency),
  locked: fromMinor(lockedMinor, currency),
  currency,
});

const presentEntry = (entry: FundFlowRow, currency: Currency) => ({
  id: entry.id,
  type: entry.type,
  amount: fromMinor(entry.amountMinor, currency),
  available_after: fromMinor(entry.availableAfterMinor, currency),
  ref_no: entry.refNo,
  note: entry.note,
  created_at: entry.createdAt.toISOString(),
});

function amountIn(amount: string, currency: Currency): bigint {
  try {
    return toMinor(amount, currency);
  } catch (error) {
    throw ValidationError.field('amount', (error as Error).message);
  }
}

/** JSON with object keys sorted: jsonb does not keep the key order it was given. */
export type OpsService = ReturnType<typeof createOpsService>;

export function createOpsService({
  db,
  now,
  ledger,
  settlements,
  sandbox,
  accessKeys,
  withdrawals,
  appKey,
}: Deps) {
  /** Runs one operator command in one transaction with its record (runOperatorAction). */
  const act = <T extends Record<string, unknown>>(
    action: string,
    context: ActionContext,
    request: Record<string, unknown>,
    merchantId: number | null,
    work: (tx: Tx, actionId: number) => Promise<{ data: T; merchantId?: number }>,
  ): Promise<ActionResult<T>> => runOperatorAction(db, action, context, request, merchantId, work);

  /** The merchant's row of that mode (live unless told): both carry the number. */
  async function merchantByNo(no: string, mode: Mode = 'live'): Promise<MerchantRow> {
    const merchant = await repo.findMerchantByNo(db, no, mode);
    if (!merchant) throw ValidationError.field('merchant', `No merchant has the number ${no}.`);
    return merchant;
  }

  async function listMerchants(mode: Mode = 'live') {
    const rows = await repo.listMerchantsWithBalances(db, mode);
    return rows.map(({ merchant, availableMinor, lockedMinor }) => ({
      ...presentMerchant(merchant),
      balance: presentBalance(availableMinor, lockedMinor, currencyOf(merchant)),
    }));
  }

  async function createMerchant(body: CreateMerchantBody, context: ActionContext) {
    return act('merchant.create', context, body, null, async (tx) => {
      const no = body.no ?? (await repo.nextMerchantNo(tx));
      const pair = await repo.insertMerchant(tx, { no, name: body.name, currency: body.currency });
      if (!pair) throw ValidationError.field('no', `The merchant number ${no} is already taken.`);
      // Its test mode starts with test funds (DESIGN 12).
      await creditStartingTestFunds(ledger, tx, pair.test);
      const merchant = pair.live;
      return { data: { merchant: presentMerchant(merchant) }, merchantId: merchant.id };
    });
  }

  async function createUser(body: CreateUserBody, context: ActionContext) {
    const merchant = await merchantByNo(body.merchant);
    const password = body.password ?? randomToken(12);
    const passwordHash = await hashPassword(password);
    const { password: _secret, ...request } = body;
    try {
      const result = await act('user.create', context, request, merchant.id, async (tx) => {
        if (await findUserByEmail(tx, body.email)) {
          throw ValidationError.field('email', 'The email has already been taken.', ERROR_CODES.emailTaken);
        }
        const user = await insertUser(tx, {
          merchantId: merchant.id,
          email: body.email,
          name: body.name,
          passwordHash,
          roles: [body.role],
        });
        return {
          data: {
            user: {
              id: user.id,
              email: user.email,
              name: user.name,
              roles: user.roles,
              merchant: merchant.no,
            },
          },
        };
      });
      // A generated password is answered once and never stored, not even in the action record.
      if (body.password || result.replayed) return result;
      return { ...result, data: { ...result.data, generated_password: password } };
    } catch (error) {
      if (sqlStateOf(error) === '23505')
        throw ValidationError.field('email', 'The email has already been taken.', ERROR_CODES.emailTaken);
      throw error;
    }
  }

  /** What every funds command answers: the action, the merchant, the entry it wrote and the balance after. */
  async function fundsMoved(
    tx: Tx,
    actionId: number,
    merchant: MerchantRow,
    entry: FundFlowRow,
    currency: Currency,
  ) {
    const balance = await ledger.balanceOf(tx, merchant.id);
    return {
      action_id: actionId,
      merchant: presentMerchant(merchant),
      entry: presentEntry(entry, currency),
      balance: presentBalance(balance.availableMinor, balance.lockedMinor, currency),
    };
  }

  async function moveFunds(direction: 'in' | 'out', body: MoveFundsBody, context: ActionContext) {
    const merchant = await merchantByNo(body.merchant, body.mode);
    const currency = currencyOf(merchant);
    const amountMinor = amountIn(body.amount, currency);
    const type = direction === 'in' ? 'transfer_in' : 'transfer_out';
    return act(`funds.transfer_${direction}`, context, body, merchant.id, async (tx, actionId) => {
      const { entry } = await ledger.post(tx, {
        merchantId: merchant.id,
        type,
        amountMinor: direction === 'in' ? amountMinor : -amountMinor,
        refType: 'operator_action',
        refId: String(actionId),
        refNo: actionRefNo(actionId),
        note: body.note ?? null,
        idempotencyKey: `operator_action:${actionId}:${type}`,
      });
      return { data: await fundsMoved(tx, actionId, merchant, entry, currency) };
    });
  }

  async function freeze(body: MoveFundsBody, context: ActionContext) {
    const merchant = await merchantByNo(body.merchant, body.mode);
    const currency = currencyOf(merchant);
    const amountMinor = amountIn(body.amount, currency);
    return act('funds.freeze', context, body, merchant.id, async (tx, actionId) => {
      const { hold, entry } = await ledger.hold(tx, {
        merchantId: merchant.id,
        type: 'funds_frozen',
        amountMinor,
        refType: 'operator_action',
        refId: String(actionId),
        refNo: actionRefNo(actionId),
        note: body.note ?? null,
        idempotencyKey: `operator_action:${actionId}:funds_frozen`,
      });
      const moved = await fundsMoved(tx, actionId, merchant, entry, currency);
      return { data: { ...moved, freeze_id: hold.id } };
    });
  }

  async function unfreeze(body: UnfreezeBody, context: ActionContext) {
    const merchant = await merchantByNo(body.merchant, body.mode);
    const currency = currencyOf(merchant);
    const hold = await ledger.findHold(db, merchant.id, body.freeze);
    if (!hold || hold.type !== 'funds_frozen') {
      throw notFound(`Merchant ${merchant.no} has no freeze number ${body.freeze}.`);
    }
    return act('funds.unfreeze', context, body, merchant.id, async (tx, actionId) => {
      const { entry } = await ledger
        .release(tx, {
          merchantId: merchant.id,
          holdId: hold.id,
          idempotencyKey: `operator_action:${actionId}:funds_unfrozen`,
          note: body.note ?? null,
        })
        .catch((error: unknown) => {
          if (error instanceof HoldClosedError) {
            throw conflict(`Freeze ${body.freeze} was already lifted.`, ERROR_CODES.invalidTransition);
          }
          throw error;
        });
      const moved = await fundsMoved(tx, actionId, merchant, entry, currency);
      return { data: { ...moved, freeze_id: hold.id } };
    });
  }

  const presentToken = (t: OperatorTokenRow) => ({
    id: t.id,
    name: t.operatorName,
    is_local: t.isLocal,
    scopes: t.scopes,
    expires_at: t.expiresAt?.toISOString() ?? null,
    expired: t.expiresAt !== null && t.expiresAt <= now(),
    created_at: t.createdAt.toISOString(),
    last_used_at: t.lastUsedAt?.toISOString() ?? null,
    revoked_at: t.revokedAt?.toISOString() ?? null,
  });

  async function listTokens() {
    return (await tokens.list(db)).map(presentToken);
  }

  /**
   * A named operator's token: answered once (only its hash is kept); the change records who made it. A
   * token grants no scope its maker lacks and outlives no maker, so an admin token cannot make itself more.
   */
  async function createToken(body: CreateOperatorTokenBody, context: ActionContext) {
    const maker = context.operator;
    if (body.scopes.some((scope) => !maker.scopes.includes(scope))) {
      throw insufficientScope(body.scopes, maker.scopes);
    }
    const expiresAt = new Date(now().getTime() + expiresInMs(body.expires_in));
    if (maker.expiresAt && expiresAt > maker.expiresAt) {
      throw ValidationError.field(
        'expires_in',
        `A token cannot outlive the token that makes it (yours expires at ${maker.expiresAt.toISOString()}).`,
      );
    }
    const token = randomToken(32);
    const result = await act('operator_token.create', context, body, null, async (tx) => {
      const row = await tokens.insertReturning(tx, {
        operatorName: body.name,
        tokenHash: sha256Hex(token),
        scopes: body.scopes,
        expiresAt,
      });
      return { data: { token: presentToken(row) } };
    });
    // A replay answers the token's record, never the secret again.
    return result.replayed ? result : { ...result, data: { ...result.data, secret: token } };
  }

  async function revokeToken(body: RevokeOperatorTokenBody, context: ActionContext) {
    return act('operator_token.revoke', context, body, null, async (tx) => {
      const found = await tokens.findById(tx, body.id);
      if (!found) throw notFound(`No operator token has the number ${body.id}.`);
      // The machine's own token is how the command line reaches this server; it is replaced, not revoked.
      if (found.isLocal)
        throw conflict('The local token cannot be revoked: delete DATA_DIR/ops.token instead.');
      const revoked = await tokens.revoke(tx, body.id, now());
      if (!revoked)
        throw conflict(`Operator token ${body.id} was already revoked.`, ERROR_CODES.invalidTransition);
      return { data: { token: presentToken(revoked) } };
    });
  }

  async function openChannel(body: OpenChannelBody, context: ActionContext) {
    const adapter = adapterFor(body.provider);
    // The sandbox marks orders paid on request: none opens where it is off.
    if (!adapter.acceptsOrders({ sandboxEnabled: sandbox.isEnabled })) sandbox.assertEnabled();
    if (!providerServesMode(body.provider, body.mode)) {
      throw conflict(
        `The ${body.provider} provider serves ${adapter.capabilities.modes.join(' and ')} mode only: open it with --mode ${adapter.capabilities.modes[0]}.`,
        ERROR_CODES.testModeOnly,
      );
    }
    if (!adapter.capabilities.kinds.includes(body.kind)) {
      throw ValidationError.field(
        'kind',
        // A channel is opened for collections or payouts; refunds go through the collection's channel.
        `A ${body.provider} channel takes ${adapter.capabilities.kinds.filter((kind) => kind !== 'refund').join(' and ')} orders only.`,
      );
    }
    const merchant = await merchantByNo(body.merchant, body.mode);
    const currency = currencyOf(merchant);
    if (!adapter.capabilities.currencies.includes(currency)) {
      throw ValidationError.field('provider', `The ${body.provider} provider does not serve ${currency}.`);
    }
    const country = body.country ?? countryOfCurrency(currency);
    if (!country || CURRENCY_OF_COUNTRY[country] !== currency) {
      throw ValidationError.field(
        'country',
        `A ${currency} merchant's channels are in ${countryOfCurrency(currency) ?? 'no supported country'}.`,
      );
    }
    const min = amountIn(body.min_amount, currency);
    const max = amountIn(body.max_amount, currency);
    if (min > max) throw ValidationError.field('max_amount', 'The maximum must not be below the minimum.');
    const settings = adapter.settingsSchema(currency).safeParse(body.settings);
    if (!settings.success) {
      const issue = settings.error.issues[0];
      throw ValidationError.field(['settings', ...issue.path].join('.'), issue.message);
    }
    const given = body.secrets ?? {};
    const names = adapter.secrets.map((secret) => secret.name);
    const unknown = Object.keys(given).find((name) => !names.includes(name));
    if (unknown) {
      throw ValidationError.field(
        `secrets.${unknown}`,
        names.length
          ? `A ${body.provider} channel keeps these secrets only: ${names.join(', ')}.`
          : `A ${body.provider} channel keeps no secrets.`,
      );
    }
    // Opened again without secrets: it keeps its own (the bank's integration goes on working).
    const existing = await findOpenOrClosedChannel(db, merchant.id, body.kind, body.code);
    const kept = existing && !body.secrets ? openChannelSecrets(appKey, existing) : {};
    // Routing (DESIGN 14): opened again, it keeps its place; a new one goes below the others of its kind,
    // so opening a channel never moves orders off the merchant's channels until an operator routes them.
    const lowest = existing ? undefined : await lowestChannelPriority(db, merchant.id, body.kind);
    const priority = body.priority ?? existing?.priority ?? (lowest === undefined ? 0 : lowest - 1);
    const weight = body.weight ?? existing?.weight ?? 100;
    const generated: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    for (const secret of adapter.secrets) {
      const value = given[secret.name] ?? kept[secret.name];
      if (typeof value === 'string' && value.trim().length >= 16) secrets[secret.name] = value.trim();
      else if (value !== undefined)
        throw ValidationError.field(
          `secrets.${secret.name}`,
          'A secret is a string of at least 16 characters.',
        );
      else if (secret.generated) secrets[secret.name] = generated[secret.name] = randomToken(32);
      else throw ValidationError.field(`secrets.${secret.name}`, `The ${secret.name} is required.`);
    }
    // The action record keeps what was asked, never a secret.
    const recorded = { ...body, secrets: body.secrets ? Object.keys(body.secrets) : undefined };
    const result = await act('channel.open', context, recorded, merchant.id, async (tx) => {
      const row = await openChannelRow(tx, {
        merchantId: merchant.id,
        code: body.code,
        kind: body.kind,
        provider: body.provider,
        country,
        currency,
        feeRatePpm: percentToPpm(body.fee_rate),
        fixedFeeMinor: amountIn(body.fixed_fee, currency),
        minAmountMinor: min,
        maxAmountMinor: max,
        settlementCycle: body.kind === 'collection' ? (body.cycle ?? 'T1') : null,
        expiryMinutes: body.expiry_minutes,
        sandboxMode: body.sandbox_mode,
        sandboxSuccessPpm: percentToPpm(body.success_rate),
        sandboxDelaySeconds: body.delay_seconds,
        settings: settings.data,
        priority,
        weight,
        secrets: names.length ? encrypt(appKey, JSON.stringify(secrets)) : null,
        openedBy: context.operator.name,
      });
      return { data: { channel: presentChannel(row, merchant.no) } };
    });
    // A secret the server made is answered once and never stored in the action record.
    if (result.replayed || Object.keys(generated).length === 0) return result;
    return { ...result, data: { ...result.data, generated_secrets: generated } };
  }

  async function closeChannel(body: CloseChannelBody, context: ActionContext) {
    const merchant = await merchantByNo(body.merchant, body.mode);
    return act('channel.close', context, body, merchant.id, async (tx) => {
      const row = await closeChannelRow(tx, merchant.id, body.kind, body.code, context.operator.name);
      if (!row) throw notFound(`${merchant.no} has no ${body.kind} channel ${body.code}.`);
      return { data: { channel: presentChannel(row, merchant.no) } };
    });
  }

  /** A channel's priority and weight (DESIGN 14): the next orders of its kind are routed by them. */
  async function routeChannel(body: RouteChannelBody, context: ActionContext) {
    const merchant = await merchantByNo(body.merchant, body.mode);
    return act('channel.route', context, body, merchant.id, async (tx) => {
      const before = await findOpenOrClosedChannel(tx, merchant.id, body.kind, body.code);
      if (!before) throw notFound(`${merchant.no} has no ${body.kind} channel ${body.code}.`);
      const row = await setChannelRoute(tx, merchant.id, body.kind, body.code, {
        ...(body.priority === undefined ? {} : { priority: body.priority }),
        ...(body.weight === undefined ? {} : { weight: body.weight }),
      });
      if (!row) throw notFound(`${merchant.no} has no ${body.kind} channel ${body.code}.`);
      return {
        data: {
          channel: presentChannel(row, merchant.no),
          before: { priority: before.priority, weight: before.weight },
        },
      };
    });
  }

  async function listChannels(merchantNo: string | undefined, mode: Mode = 'live') {
    const merchants = merchantNo
      ? [await merchantByNo(merchantNo, mode)]
      : await repo.listMerchants(db, mode);
    const noOf = new Map(merchants.map((m) => [m.id, m.no]));
    const rows = merchantNo ? await listChannelsOfMerchant(db, merchants[0].id) : await listAllChannels(db);
    // All channels of the mode's merchant rows: the other mode's are not listed.
    return rows
      .filter((row) => noOf.has(row.merchantId))
      .map((row) => ({ ...presentChannel(row, noOf.get(row.merchantId)!), mode }));
  }

  /** Settles what every channel's cycle allows now; a batch is posted once however often this runs. */
  async function runSettlement(context: ActionContext) {
    // The run commits batch by batch in transactions of its own (a batch is posted once whatever runs it),
    // so it runs first and the action records what it did; inside act's transaction it would wait on
    // PGlite's one connection forever.
    const { created, posted } = await settlements.run();
    const data = { created: created.map(settlements.present), posted: posted.map(settlements.present) };
    return act('settlement.run', context, {}, null, async () => ({ data }));
  }

  /** Finishes one sandbox collection at will (paid or failed). */
  async function completeSandbox(body: SandboxCompleteBody, context: ActionContext) {
    // Its own transaction (with the order's callback), then recorded: see runSettlement.
    const row = await sandbox.complete(body.trade_no, body.result);
    const data = { trade_no: row.tradeNo, status: row.status };
    return act('sandbox.complete', context, body, null, async () => ({ data, merchantId: row.merchantId }));
  }

  /**
   * One demo order through the merchant's own signed gateway route (ops demo:traffic). It signs with the
   * merchant's secret and a payout spends the merchant's funds, so it is an operator action like any other
   * change: recorded (who, when, why) in the transaction that reads the secret, before the order is sent
   * (the gateway runs transactions of its own), and completed with the gateway's answer. A merchant
   * without a key is refused with nothing written.
   */
  async function placeDemoOrder(
    kind: 'collection' | 'payout',
    body: DemoCollectionBody | DemoPayoutBody,
    context: ActionContext,
    send: (signing: DemoSigning) => Promise<DemoOrderResult>,
  ): Promise<ActionResult<DemoOrderResult>> {
    const merchant = await merchantByNo(body.merchant, body.mode);
    const step = await transactionWithRetry(db, async (tx) => {
      const claimed = await claimOrReplay<DemoOrderResult>(tx, `demo.${kind}`, context, body, merchant.id);
      if ('replay' in claimed) return claimed;
      const credentials = await accessKeys.credentialsOf(tx, merchant.id);
      if (!credentials)
        throw conflict(
          `${merchant.no} has no access key yet: it is issued in Settings > Access key.`,
          ERROR_CODES.accessKeyNotIssued,
        );
      return { actionId: claimed.actionId, credentials };
    });
    if ('replay' in step) return { data: step.replay, replayed: true };
    const data = await send({
      merchantNo: merchant.no,
      accessKey: step.credentials.accessKey,
      secret: step.credentials.secret,
      currency: currencyOf(merchant),
      timestamp: Math.floor(now().getTime() / 1000),
    });
    await repo.completeAction(db, step.actionId, { detail: { request: body, result: data } });
    return { data, replayed: false };
  }

  async function verify(merchantNo?: string, mode?: Mode) {
    if (merchantNo) await merchantByNo(merchantNo);
    return verifyLedger(db, merchantNo, mode);
  }

  // ---- Withdrawals: review, payment on chain, rejection (DESIGN sections 4 and 10)

  const presentWithdrawal = (row: WithdrawalRow, merchantNo: string) => ({
    merchant: merchantNo,
    ...withdrawals.present(row),
    approved_by: row.approvedBy,
    paid_by: row.paidBy,
    rejected_by: row.rejectedBy,
  });

  async function listWithdrawals(query: ListWithdrawalsQuery) {
    const merchant = query.merchant ? await merchantByNo(query.merchant) : undefined;
    const rows = await withdrawals.listForOps({
      merchantId: merchant?.id,
      status: query.status,
      limit: query.limit,
    });
    return rows.map((r) => presentWithdrawal(r.withdrawal, r.merchantNo));
  }

  /**
   * One decision on a withdrawal, only from the state it names: a decision racing another one finds the
   * state changed and answers 409 (exactly one of them applies).
   */
  async function decideWithdrawal(
    body: WithdrawalDecisionBody & { tx_hash?: string; from?: Decision['from'] },
    to: Decision['to'],
    context: ActionContext,
  ) {
    const seen = await withdrawals.findAny(body.no);
    return act(`withdrawal.${to}`, context, body, seen.withdrawal.merchantId, async (tx) => {
      const row = await withdrawals.decide(tx, seen.withdrawal, {
        to,
        from: body.from,
        operator: context.operator.name,
        reason: context.reason,
        txHash: body.tx_hash,
      });
      const balance = await ledger.balanceOf(tx, row.merchantId);
      const currency = row.localCurrency as Currency;
      return {
        data: {
          withdrawal: presentWithdrawal(row, seen.merchantNo),
          balance: presentBalance(balance.availableMinor, balance.lockedMinor, currency),
        },
      };
    }).catch((error: unknown) => {
      // The unique transaction hash, taken by a concurrent payment of another withdrawal.
      if (sqlStateOf(error) === '23505')
        throw conflict('This transaction hash already paid another withdrawal.');
      throw error;
    });
  }

  return {
    listWithdrawals,
    approveWithdrawal: (body: WithdrawalDecisionBody, context: ActionContext) =>
      decideWithdrawal(body, 'approved', context),
    payWithdrawal: (body: PayWithdrawalBody, context: ActionContext) =>
      decideWithdrawal(body, 'paid', context),
    rejectWithdrawal: (body: RejectWithdrawalBody, context: ActionContext) =>
      decideWithdrawal(body, 'rejected', context),
    listTokens,
    createToken,
    revokeToken,
    trialBalance: (mode?: Mode) => trialBalance(db, mode),
    listMerchants,
    createMerchant,
    createUser,
    transferIn: (body: MoveFundsBody, context: ActionContext) => moveFunds('in', body, context),
    transferOut: (body: MoveFundsBody, context: ActionContext) => moveFunds('out', body, context),
    freeze,
    unfreeze,
    verify,
    openChannel,
    closeChannel,
    routeChannel,
    runSettlement,
    completeSandbox,
    placeDemoOrder,
    listChannels,
  };
}

/** A merchant by its number (the top-ups' operator review filters by it). */
export const findMerchantByNo = repo.findMerchantByNo;

/** The id of a merchant's row of this mode, for an operator route that names it (404 when there is none). */
export async function merchantIdByNo(db: Db, no: string, mode: Mode): Promise<number> {
  const merchant = await repo.findMerchantByNo(db, no, mode);
  if (!merchant) throw notFound(`No ${mode} merchant ${no}.`);
  return merchant.id;
}

/** The demo seed: whether any merchant exists yet, its merchants, and its operator actions' records. */
export const hasMerchants = repo.hasMerchants;
export const insertMerchant = repo.insertMerchant;
export const claimOperatorAction = repo.claimAction;
