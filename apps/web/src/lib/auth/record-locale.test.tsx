import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/index.ts';
import { recordCalls, TEST_USER } from '../../test/server.ts';
import { type CurrentUser, currentUserQueryKey, useCurrentUser } from './get-current-user.ts';
import { useRecordLocale } from './record-locale.ts';

function Recorder() {
  useRecordLocale(useCurrentUser());
  return null;
}

const localeCalls = (calls: ReturnType<typeof recordCalls>) =>
  calls.filter((c) => c.path === '/api/user/locale').map((c) => [c.method, c.body]);

afterEach(() => changeLanguage('zh-cn'));

describe('the mail language (PUT /api/user/locale)', () => {
  it('is recorded once signed in when the server has another, and again at each switch, and not otherwise', async () => {
    const calls = recordCalls();
    await changeLanguage('vi');
    const client = new QueryClient();
    client.setQueryData(currentUserQueryKey, { ...TEST_USER, locale: 'en' } as CurrentUser);
    render(
      <QueryClientProvider client={client}>
        <Recorder />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(localeCalls(calls)).toEqual([['PUT', { locale: 'vi' }]]));
    await waitFor(() => expect(client.getQueryData<CurrentUser>(currentUserQueryKey)?.locale).toBe('vi'));
    await act(() => changeLanguage('en'));
    await waitFor(() =>
      expect(localeCalls(calls)).toEqual([
        ['PUT', { locale: 'vi' }],
        ['PUT', { locale: 'en' }],
      ]),
    );
    await waitFor(() => expect(client.getQueryData<CurrentUser>(currentUserQueryKey)?.locale).toBe('en'));
    expect(localeCalls(calls)).toHaveLength(2);
  });
});
