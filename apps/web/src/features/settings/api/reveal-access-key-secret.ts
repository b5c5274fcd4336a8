import { useMutation } from '@tanstack/react-query';
import {
  type AccessKeySecret,
  AccessKeySecretResponseSchema,
} from '@paydesk/shared/access-key/access-key.schemas.ts';
import { STEP_UP_HANDLED, stepUpBody, type StepUpValues } from '../../../components/step-up-fields.tsx';
import { http } from '../../../lib/http.ts';
import type { Mode } from '../../../stores/mode.ts';

export type { AccessKeySecret };

/**
 * GET /api/merchant/access-key/secret?mode=&payment_password=&code= (the spec sends them in the query): the
 * secret key and the webhook secret of that mode's key. Never cached: the page holds them only while it is open.
 */
export const revealAccessKeySecret = ({
  mode,
  ...values
}: StepUpValues & { mode: Mode }): Promise<AccessKeySecret> =>
  http
    .get('/api/merchant/access-key/secret', {
      query: { mode, ...stepUpBody(values) },
      handled: STEP_UP_HANDLED,
      schema: AccessKeySecretResponseSchema,
    })
    .then((r) => r.data);

// gcTime 0: the mutation cache forgets the answer as soon as the page that asked is gone.
export const useRevealAccessKeySecret = () => useMutation({ mutationFn: revealAccessKeySecret, gcTime: 0 });
