import { z } from 'zod';
import {
  CreateOperatorTokenBodySchema,
  OPERATOR_SCOPES,
  RevokeOperatorTokenBodySchema,
} from '../../modules/ops/index.ts';
import { type CommandSpec, REASON, table } from './command-spec.ts';

// Operator tokens (DESIGN section 10): operator:token-create|list|revoke.

type TokenView = {
  id: number;
  name: string;
  is_local: boolean;
  scopes: string[];
  expires_at: string | null;
  expired: boolean;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

export const TOKEN_COMMANDS: Record<string, CommandSpec> = {
  'operator:token-create': {
    summary:
      "Create a named operator's token with its scopes and expiry (printed once; only its hash is kept; needs admin).",
    options: {
      name: { value: '<operator>', required: true, help: "the operator's name, recorded with their changes" },
      scopes: {
        value: '<list>',
        required: true,
        help: `what it may do, comma-separated: ${OPERATOR_SCOPES.join(', ')} (none implies another; at most your own token's)`,
      },
      'expires-in': {
        value: '<30d|12h>',
        help: 'how long it works, in days or hours (default 90d, at most 365d)',
      },
      reason: REASON,
    },
    changes: true,
    schema: CreateOperatorTokenBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/operator-tokens', body }),
    print: (data) => {
      const token = data.token as TokenView;
      return [
        `Created operator token #${token.id} for ${token.name}: ${token.scopes.join(', ')}; expires ${token.expires_at ?? 'never'}.`,
        ...(typeof data.secret === 'string'
          ? [`Token (shown once, keep it secret): ${data.secret}`]
          : ['(A repeat of an earlier request: the token was shown then and is not shown again.)']),
      ];
    },
    examples: [
      'npm run ops -- operator:token-create --name alice --scopes read,review --expires-in 30d --reason "new on-call operator"',
    ],
  },
  'operator:token-list': {
    summary: 'List operator tokens with their scopes and expiry (never their secrets; needs admin).',
    options: {},
    changes: false,
    schema: z.object({}),
    request: () => ({ method: 'GET', path: '/ops/v1/operator-tokens' }),
    print: (data) =>
      table(
        ['ID', 'OPERATOR', 'KIND', 'SCOPES', 'STATUS', 'EXPIRES', 'CREATED', 'LAST USED', 'REVOKED'],
        (data as unknown as TokenView[]).map((t) => [
          String(t.id),
          t.name,
          t.is_local ? 'local' : 'named',
          t.scopes.join(','),
          t.revoked_at ? 'revoked' : t.expired ? 'expired' : 'live',
          t.expires_at ?? 'never',
          t.created_at,
          t.last_used_at ?? '-',
          t.revoked_at ?? '-',
        ]),
      ),
    examples: ['npm run ops -- operator:token-list', 'npm run ops -- operator:token-list --json'],
  },
  'operator:token-revoke': {
    summary: 'Revoke an operator token: it stops working at once.',
    options: {
      id: { value: '<id>', required: true, help: 'the token number operator:token-list prints' },
      reason: REASON,
    },
    changes: true,
    schema: RevokeOperatorTokenBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/operator-tokens/revoke', body }),
    print: (data) => {
      const token = data.token as TokenView;
      return [`Revoked operator token #${token.id} of ${token.name}.`];
    },
    examples: ['npm run ops -- operator:token-revoke --id 3 --reason "left the team"'],
  },
};
