import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ContactResponseSchema } from '@paydesk/shared/contact/contact.schemas.ts';
import type { AppContext } from '../../context.ts';
import { contactLanguageOf, contactOf } from './contact.service.ts';

const ContactQuerySchema = z.object({ lang: z.string().trim().max(16).optional() });

/** Contact us: GET /api/merchant/contact, the support channels in the user's language. */
export function registerContactModule(app: FastifyInstance, { config, guards }: AppContext): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/merchant/contact',
    {
      onRequest: guards.requirePerm('contact:view'),
      schema: { querystring: ContactQuerySchema, response: { 200: ContactResponseSchema } },
    },
    async (request) => ({
      data: contactOf(
        config.support,
        contactLanguageOf(request.query.lang, request.headers['accept-language']),
      ),
    }),
  );
}
