import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { CURRENCIES, type Currency, groupDecimal } from '@paydesk/shared/money.ts';
import i18n from '../i18n/index.ts';

/**
 * The unit written after an amount: the spec's "Yuan" for CNY in the user's language (元, Yuan, Nhân dân
 * tệ; spec section 9), the code for every other currency (INR, USDT).
 */
export function currencyUnit(currency: string): string {
  return currency === 'CNY' ? i18n.t('common:currencyUnit.CNY') : currency;
}

/**
 * "1234.5" in CNY -> "1,234.50": the decimal string from the API, padded to the currency's decimals and
 * grouped, exactly (never through a float). `signed` shows "+" on positive amounts (fund flows).
 */
export function formatMoney(value: string, currency: Currency, { signed = false } = {}): string {
  const match = /^([+-])?(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return value;
  const [, sign = '', whole, fraction = ''] = match;
  const exponent = CURRENCIES[currency].exponent;
  const digits = fraction.length >= exponent ? fraction : fraction.padEnd(exponent, '0');
  const isZero = /^0*$/.test(whole + digits);
  const body = groupDecimal(digits ? `${whole}.${digits}` : whole);
  if (isZero) return body;
  if (sign === '-') return `-${body}`;
  return signed ? `+${body}` : body;
}

export function MoneyText({
  value,
  currency,
  signed = false,
  unit = 'none',
}: {
  value: string | null | undefined;
  currency: Currency;
  signed?: boolean;
  /** Show the currency's symbol before the amount, or its unit after it (currencyUnit: Yuan for CNY). */
  unit?: 'none' | 'symbol' | 'code';
}) {
  const { token } = theme.useToken();
  useTranslation(); // The unit follows the language.
  if (value === null || value === undefined || value === '') return <span>-</span>;
  const text = formatMoney(value, currency, { signed });
  const isNegative = text.startsWith('-');
  const symbol = CURRENCIES[currency].symbol;
  const shown =
    unit === 'symbol' && symbol
      ? `${isNegative ? '-' : text.startsWith('+') ? '+' : ''}${symbol}${text.replace(/^[+-]/, '')}`
      : unit === 'code'
        ? `${text} ${currencyUnit(currency)}`
        : text;
  return (
    <span
      className="money-text"
      style={{
        fontVariantNumeric: 'tabular-nums',
        color: signed
          ? isNegative
            ? token.colorError
            : text.startsWith('+')
              ? token.colorSuccess
              : undefined
          : undefined,
      }}
    >
      {shown}
    </span>
  );
}
