import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { LoginBody, LoginResponseSchema } from '@paydesk/shared/auth/auth.schemas.ts';
import { http } from '../../../lib/http.ts';

export type LoginResult = z.infer<typeof LoginResponseSchema>;

/**
 * GET /api/csrf-cookie, then POST /api/login as multipart (spec section 7). A fresh XSRF cookie each time:
 * one left from an ended session would be refused with 419.
 */
export async function login({
  email,
  password,
}: Pick<LoginBody, 'email' | 'password'>): Promise<LoginResult> {
  // The login route loads no zod: the schema (and zod) load while the requests run.
  const schema = import('@paydesk/shared/auth/auth.schemas.ts').then((m) => m.LoginResponseSchema);
  await http.get('/api/csrf-cookie');
  const body = new FormData();
  body.set('email', email);
  body.set('password', password);
  return http.post('/api/login', body, { handled: [422, 429], schema });
}

export const useLogin = () => useMutation({ mutationFn: login });
