import type { DayPoint } from '@paydesk/shared/dashboard/dashboard.schemas.ts';

// The dashboard's series as GET /api/merchant/dashboard answers them, for the dashboard's tests.

/** The last 30 days up to 2026-03-05 (from 2026-02-04), oldest first, as the server sends them. */
export const DAYS = Array.from({ length: 30 }, (_, i) =>
  new Date(Date.UTC(2026, 1, 4 + i)).toISOString().slice(0, 10),
);

/** A day of a series: nothing paid and no orders unless changed. */
export const point = (date: string, changes: Partial<DayPoint> = {}): DayPoint => ({
  date,
  paid_amount: '0',
  paid_count: 0,
  order_count: 0,
  success_rate: null,
  statuses: {},
  ...changes,
});
