import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { permsFor, type Role } from '@paydesk/shared/auth/roles.ts';
import { currentUserQueryKey } from '../lib/auth/get-current-user.ts';
import { HasPerm, useHasPerm } from './has-perm.tsx';

function renderAs(role: Role, ui: React.ReactNode) {
  const client = new QueryClient();
  client.setQueryData(currentUserQueryKey, { roles: [role], perms: permsFor([role]) });
  render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

function CanPay() {
  return <p>{useHasPerm(['payout:view', 'payout:create']) ? 'may pay' : 'may not pay'}</p>;
}

describe('hasPerm', () => {
  it('shows an element to a role holding the permission', () => {
    renderAs('OPERATOR', <HasPerm perm="payout:create">New payout</HasPerm>);
    expect(screen.getByText('New payout')).toBeInTheDocument();
  });

  it('hides it from a role without, showing the fallback if any', () => {
    renderAs(
      'VIEWER',
      <HasPerm perm="payout:create" fallback={<span>read only</span>}>
        New payout
      </HasPerm>,
    );
    expect(screen.queryByText('New payout')).toBeNull();
    expect(screen.getByText('read only')).toBeInTheDocument();
  });

  it('the hook needs every permission it is given', () => {
    renderAs('VIEWER', <CanPay />);
    expect(screen.getByText('may not pay')).toBeInTheDocument();
  });
});
