import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';

// Every gateway answer the integration suite provokes is checked against the schema /gateway/openapi.json
// documents for its operation and status (issue 39: "every route's actual answers in the test suite match
// their documented schema"). createTestApp records them; its close() checks them, so a test file whose
// gateway answers drift from the document fails, whichever file it is.

/** An answer: `route` is the document's path template. */
export type RecordedAnswer = { method: string; route: string; status: number; body: string };

type OpenApiDocument = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: unknown;
  webhooks?: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
};

const DOC_ID = 'paydesk-gateway-openapi';

/** `/gateway/v1/collections/:trade_no` -> `/gateway/v1/collections/{trade_no}`. */
export const openApiPath = (route: string) => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Validators of a document's response and callback schemas, by operation and status (ajv, JSON Schema 2020-12). */
export function createAnswerValidator(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // The document's own `#/components/...` references, resolved against the document added once.
  const rebased = (schema: unknown) =>
    JSON.parse(JSON.stringify(schema), (key, value) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOC_ID}${value}` : value,
    ) as object;
  ajv.addSchema({ $id: DOC_ID, components: rebased(document.components) });
  const compiled = new Map<string, ValidateFunction>();

  function validatorOf(key: string, schema: unknown): ValidateFunction {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(rebased(schema));
      compiled.set(key, validate);
    }
    return validate;
  }

  return {
    /** The problems of one answer: empty when its status is documented and its body matches. */
    check(answer: RecordedAnswer): string[] {
      const where = `${answer.method} ${answer.route} -> ${answer.status}`;
      const operation = document.paths[openApiPath(answer.route)]?.[answer.method.toLowerCase()];
      // HEAD answers GET's headers without a body.
      if (!operation && answer.method === 'HEAD') return [];
      if (!operation) return [`${where}: no such operation in the document`];
      const schema = operation.responses[String(answer.status)]?.content?.['application/json']?.schema;
      if (!schema) return [`${where}: this status is not documented`];
      let body: unknown;
      try {
        body = JSON.parse(answer.body);
      } catch {
        return [`${where}: the body is not JSON: ${answer.body.slice(0, 200)}`];
      }
      const validate = validatorOf(where, schema);
      if (validate(body)) return [];
      return [`${where}: ${ajv.errorsText(validate.errors)} in ${answer.body.slice(0, 400)}`];
    },
    /** The problems of a callback's body against its event's documented schema. */
    checkCallback(type: string, body: unknown): string[] {
      const schema = document.webhooks?.[type]?.post.requestBody.content['application/json']?.schema;
      if (!schema) return [`callback ${type}: not documented`];
      const validate = validatorOf(`callback ${type}`, schema);
      return validate(body) ? [] : [`callback ${type}: ${ajv.errorsText(validate.errors)}`];
    },
    /** The problems of a value against a schema of the document (an example, say). */
    checkSchema(key: string, schema: unknown, value: unknown): string[] {
      const validate = validatorOf(key, schema);
      return validate(value) ? [] : [`${key}: ${ajv.errorsText(validate.errors)}`];
    },
  };
}

/** The document's path template that `path` (no query) is an instance of, e.g. /gateway/v1/refunds/{refund_no}. */
function routeOf(document: OpenApiDocument, path: string): string | undefined {
  for (const template of Object.keys(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(path)) return template;
  }
  return undefined;
}

/**
 * Records the gateway answers of the app's `inject` calls (the integration suite's way of calling it).
 * Returns the check to run once the test file is done with the app: the error listing every answer that
 * breaks the document, if any.
 */
export function recordGatewayAnswers(app: FastifyInstance): () => Error | undefined {
  const answers: Array<{ method: string; path: string; status: number; body: string }> = [];
  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  (app as { inject: unknown }).inject = (...args: unknown[]) => {
    const result = inject(...args);
    const options = args[0];
    if (args.length !== 1 || !(result instanceof Promise)) return result;
    const method =
      typeof options === 'object' && options !== null && 'method' in options ? String(options.method) : 'GET';
    const url =
      typeof options === 'string'
        ? options
        : ((options as { url?: unknown; path?: unknown }).url ?? (options as { path?: unknown }).path);
    if (typeof url !== 'string') return result;
    const path = new URL(url, 'http://localhost').pathname;
    if (!path.startsWith('/gateway/v1/')) return result;
    return result.then((response: { statusCode: number; body: string }) => {
      answers.push({ method: method.toUpperCase(), path, status: response.statusCode, body: response.body });
      return response;
    });
  };
  return () => {
    if (answers.length === 0) return undefined;
    const document = app.swagger() as unknown as OpenApiDocument;
    const validator = createAnswerValidator(document);
    const problems = answers.flatMap(({ method, path, status, body }) => {
      const route = routeOf(document, path);
      // An address of no route answers the app's 404, which is no operation's.
      if (!route)
        return status === 404 ? [] : [`${method} ${path} -> ${status}: no such path in the document`];
      return validator.check({ method, route, status, body });
    });
    if (problems.length > 0) {
      return new Error(
        `${problems.length} gateway answers do not match /gateway/openapi.json:\n${[...new Set(problems)].slice(0, 30).join('\n')}`,
      );
    }
    return undefined;
  };
}
