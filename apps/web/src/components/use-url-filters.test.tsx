import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ListQuerySchema } from '@paydesk/shared/pagination.ts';
import { parseFilters, useUrlFilters } from './use-url-filters.ts';

const OrdersQuery = ListQuerySchema.extend({
  status: z.enum(['paid', 'failed']).optional(),
  trade_no: z.string().optional(),
});

describe('list filters in the URL', () => {
  it('parses the query with the list schema and drops what it cannot read', () => {
    expect(parseFilters(OrdersQuery, new URLSearchParams('page=3&status=paid&trade_no=T1'))).toEqual({
      page: 3,
      per_page: 20,
      status: 'paid',
      trade_no: 'T1',
    });
    expect(
      parseFilters(OrdersQuery, new URLSearchParams('page=-1&per_page=5000&status=weird&trade_no=T2')),
    ).toEqual({
      page: 1,
      per_page: 20,
      trade_no: 'T2',
    });
  });

  it('writes a changed filter to the URL and goes back to page 1', () => {
    let api: ReturnType<typeof useUrlFilters<typeof OrdersQuery>> | undefined;
    function List() {
      api = useUrlFilters(OrdersQuery);
      return null;
    }
    const router = createMemoryRouter([{ path: '/orders', Component: List }], {
      initialEntries: ['/orders?page=4&status=paid'],
    });
    render(<RouterProvider router={router} />);
    expect(api!.filters).toMatchObject({ page: 4, status: 'paid' });

    act(() => api!.setFilters({ trade_no: 'T9', status: undefined }));
    expect(router.state.location.search).toBe('?trade_no=T9');
    expect(api!.filters).toEqual({ page: 1, per_page: 20, trade_no: 'T9' });

    act(() => api!.setFilters({ page: 2, per_page: 50 }));
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2');
    expect(api!.filters).toMatchObject({ page: 2, per_page: 50, trade_no: 'T9' });

    act(() => api!.resetFilters());
    expect(router.state.location.search).toBe('');
  });
});
