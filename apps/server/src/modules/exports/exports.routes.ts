import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateExportBodySchema,
  ExportListQuerySchema,
  ExportListResponseSchema,
  type ExportLocale,
  ExportTaskResponseSchema,
} from '@paydesk/shared/exports/exports.schemas.ts';
import { notFound } from '../../lib/errors.ts';
import { resolveTimeZone } from '../../lib/timezone.ts';
import { authOf, type Guards, PURE_READ } from '../../plugins/auth-context.ts';
import type { ExportActor, ExportsService, ExportViewer } from './exports.service.ts';

/** The spec's language rule: English selects English, vi Vietnamese, anything else Chinese. */
export function localeOf(acceptLanguage: string | undefined): ExportLocale {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  if (first.startsWith('en')) return 'en';
  if (first.startsWith('vi')) return 'vi';
  return 'zh-cn';
}

function actorOf(request: FastifyRequest): ExportActor {
  const { user, merchant, perms, mode } = authOf(request);
  return {
    userId: user.id,
    merchantId: merchant.id,
    mode,
    perms,
    timeZone: resolveTimeZone(user.timezone, request.headers['x-timezone']),
    locale: localeOf(request.headers['accept-language']),
  };
}

/** Reading needs no time zone or language: a bad X-Timezone header does not stop a download. */
function viewerOf(request: FastifyRequest): ExportViewer {
  const { merchant, perms } = authOf(request);
  return { merchantId: merchant.id, perms };
}

const IdParams = z.object({ id: z.string() });
// Anything but an id of ours reads as "not found", never as a validation error that confirms a format.
const idOf = (value: string) => {
  if (!/^\d{1,15}$/.test(value)) throw notFound('The export was not found.');
  return Number(value);
};

/** RFC 6266: an ASCII name for old clients and the UTF-8 one for the rest (ours are ASCII anyway). */
const contentDisposition = (fileName: string) =>
  `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

/** The Exports page (DESIGN section 5). */
export function exportsRoutes(
  app: FastifyInstance,
  { exports, guards }: { exports: ExportsService; guards: Guards },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const canView = guards.requirePerm('export:view');
  const canCreate = guards.requirePerm('export:create');

  r.post(
    '/api/merchant/exports',
    {
      onRequest: canCreate,
      schema: { body: CreateExportBodySchema, response: { 201: ExportTaskResponseSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const task = await exports.create(actor, {
        ...request.body,
        locale: request.body.locale ?? actor.locale,
      });
      return reply.status(201).send({ data: task });
    },
  );

  r.get(
    '/api/merchant/exports',
    {
      config: PURE_READ,
      onRequest: canView,
      schema: { querystring: ExportListQuerySchema, response: { 200: ExportListResponseSchema } },
    },
    async (request) => exports.list(viewerOf(request), request.query),
  );

  r.get(
    '/api/merchant/exports/:id',
    { onRequest: canView, schema: { params: IdParams, response: { 200: ExportTaskResponseSchema } } },
    async (request) => ({ data: await exports.detail(viewerOf(request), idOf(request.params.id)) }),
  );

  r.get(
    '/api/merchant/exports/:id/download',
    { onRequest: canView, schema: { params: IdParams } },
    async (request, reply) => {
      const file = await exports.download(viewerOf(request), idOf(request.params.id));
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      if (file.size !== null) reply.header('content-length', String(file.size));
      return reply.send(file.stream);
    },
  );

  r.post(
    '/api/merchant/exports/:id/retry',
    { onRequest: canCreate, schema: { params: IdParams, response: { 200: ExportTaskResponseSchema } } },
    async (request) => ({ data: await exports.retry(actorOf(request), idOf(request.params.id)) }),
  );
}
