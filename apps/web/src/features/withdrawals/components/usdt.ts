import { groupDecimal } from '@paydesk/shared/money.ts';

/** "100.000000" -> "100.00", "1.234500" -> "1.2345": USDT with its 6 decimals trimmed to what is used. */
export function formatUsdt(value: string | null | undefined): string {
  if (!value) return '-';
  const match = /^(-?\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return value;
  const fraction = (match[2] ?? '').replace(/0+$/, '').padEnd(2, '0');
  return groupDecimal(`${match[1]}.${fraction}`);
}
