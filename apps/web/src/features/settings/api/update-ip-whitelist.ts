import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type IpWhitelist,
  IpWhitelistResponseSchema,
  type UpdateIpWhitelistBody,
} from '@paydesk/shared/access-key/access-key.schemas.ts';
import { STEP_UP_HANDLED, stepUpBody } from '../../../components/step-up-fields.tsx';
import { http } from '../../../lib/http.ts';
import { ipWhitelistQueryKey } from './get-ip-whitelist.ts';

/**
 * PUT /api/merchant/ip-address {ip_address, payment_password, code}: the saved list, or 422 with the
 * wrong line in errors.ip_address.
 */
export const updateIpWhitelist = ({ ip_address, ...factors }: UpdateIpWhitelistBody): Promise<IpWhitelist> =>
  http
    .put(
      '/api/merchant/ip-address',
      { ip_address, ...stepUpBody(factors) },
      { handled: STEP_UP_HANDLED, schema: IpWhitelistResponseSchema },
    )
    .then((r) => r.data);

export function useUpdateIpWhitelist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateIpWhitelist,
    onSuccess: (saved) => queryClient.setQueryData(ipWhitelistQueryKey, saved),
  });
}
