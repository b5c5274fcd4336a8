import { offsetMinutesAt } from '../../lib/timezone.ts';

/**
 * A cell as the writers take it: text (checked against formula injection, DESIGN 9) or a number we wrote
 * ourselves (an amount as an exact decimal string, a count), which stays a number.
 */
export type CellType = 'text' | 'number';

export type WriterColumn = {
  title: string;
  type: CellType;
  /** Decimal places of a number column (amounts in the currency's minor unit), for the XLSX format. */
  decimals?: number;
};

/** A row's cells in column order: decimal strings for number columns, any text for text columns. */
export type Row = (string | null)[];

// A spreadsheet reads a cell that begins with one of these as a formula (or, for tab and CR, as a prefix
// that some importers strip before reading a formula).
const FORMULA_START = /^[=+\-@\t\r]/;

/** A leading apostrophe makes the cell plain text in Excel, LibreOffice and Google Sheets. */
export const neutralizeFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** XLSX number formats for 0 to 6 decimals: style 1 + decimals. */
export const MAX_DECIMALS = 6;

/** The XLSX style of a number cell with this many decimals. */
export const numberStyle = (decimals: number): number => 1 + Math.min(MAX_DECIMALS, Math.max(0, decimals));

/** 0 -> A, 25 -> Z, 26 -> AA. */
export function columnLetters(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

// Offsets change at most every quarter of an hour (and only at a zone's transitions): one look-up per
// quarter instead of one Intl call per row. Rows come in time order, so the last quarter and the last day
// are kept as they are: most rows cost a little arithmetic and one string.
const QUARTER_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

/** "2026-03-01 08:30:00" in the given zone, fast enough for millions of rows. */
export function localTimeFormatter(timeZone: string): (at: Date | null) => string {
  const offsets = new Map<number, number>();
  let lastQuarter = Number.NaN;
  let lastOffsetMs = 0;
  let lastDay = Number.NaN;
  let dayText = '';
  return (at) => {
    if (!at) return '';
    const ms = at.getTime();
    const quarter = Math.floor(ms / QUARTER_MS);
    if (quarter !== lastQuarter) {
      let offset = offsets.get(quarter);
      if (offset === undefined) {
        offset = offsetMinutesAt(timeZone, at);
        if (offsets.size > 10_000) offsets.clear();
        offsets.set(quarter, offset);
      }
      lastQuarter = quarter;
      lastOffsetMs = offset * 60_000;
    }
    const local = ms + lastOffsetMs;
    const day = Math.floor(local / DAY_MS);
    if (day !== lastDay) {
      const d = new Date(day * DAY_MS);
      dayText = `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} `;
      lastDay = day;
    }
    let seconds = Math.floor((local - day * DAY_MS) / 1000);
    const hours = Math.floor(seconds / 3600);
    seconds -= hours * 3600;
    const minutes = Math.floor(seconds / 60);
    seconds -= minutes * 60;
    return `${dayText}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}`;
  };
}
