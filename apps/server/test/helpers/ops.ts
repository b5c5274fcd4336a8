import type { FastifyInstance } from 'fastify';
import { runOps } from '../../src/cli/ops-commands.ts';
import { injectTransport, type OpsTransport } from '../../src/cli/transport.ts';
import { OPERATOR_HEADER } from '../../src/modules/ops/index.ts';

/**
 * The ops command line against a test app in this process, as `operator`: its exit code, its output and
 * how often it reached the API.
 */
export const opsRunner =
  (app: () => FastifyInstance, token: () => string, operator: string) =>
  async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    let connections = 0;
    const code = await runOps(argv, {
      io: { out: (t) => out.push(t), err: (t) => err.push(t) },
      connect: async (): Promise<OpsTransport> => {
        connections += 1;
        return injectTransport(app(), token());
      },
      defaultOperator: operator,
    });
    return { code, out: out.join('\n'), err: err.join('\n'), connections };
  };

/** One POST to the operator API with the machine's token, as `operator`. */
export const opsPost = (
  app: FastifyInstance,
  token: string,
  url: string,
  body: unknown,
  operator = 'Olga Ops',
) =>
  app.inject({
    method: 'POST',
    url,
    headers: {
      authorization: `Bearer ${token}`,
      [OPERATOR_HEADER]: operator,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(body),
  });
