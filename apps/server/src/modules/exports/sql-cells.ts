import { type Currency, exponentOf } from '@paydesk/shared';
import { parseOffsetMinutes } from '@paydesk/shared/time-zone.ts';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

// An export's cells written by PostgreSQL itself: the same text the list shows (exact decimals, local
// times, translated labels), and, for a COPY straight into the file, the file's own encoding (formula
// neutralisation for CSV, escaped XML cells for XLSX). The JavaScript writers do the same for rows read in
// batches (PGlite); exports.test.ts checks both ends on both databases.

/**
 * 1250 -> '12.50' in CNY, '1250' in VND: the exact decimal `fromMinor` writes. Multiplied by 0.01 rather
 * than divided by 100: a numeric division keeps only about 16 significant digits (9223372036854775807
 * would read 92233720368547758.00), a multiplication is exact.
 */
export const sqlAmount = (minor: SQLWrapper, currency: Currency): SQL => {
  const exponent = exponentOf(currency);
  const unit = exponent === 0 ? '1' : `0.${'0'.repeat(exponent - 1)}1`;
  return sql`((${minor})::numeric * ${sql.raw(unit)})::numeric(40, ${sql.raw(String(exponent))})::text`;
};

/**
 * '2026-03-01 08:30:00' in the zone (as `localTimeFormatter`); an empty cell for no time. A UTC offset is
 * added as minutes: AT TIME ZONE would read '+08:00' as a POSIX zone and flip its sign.
 */
export function sqlLocalTime(at: SQLWrapper, timeZone: string): SQL {
  const offset = parseOffsetMinutes(timeZone);
  const local =
    offset === null
      ? sql`(${at}) at time zone ${timeZone}`
      : sql`(${at}) at time zone 'UTC' + ${sql.raw(String(offset))} * interval '1 minute'`;
  return sql`to_char(${local}, 'YYYY-MM-DD HH24:MI:SS')`;
}

/** A code's label; a code without one is written as it is. */
export function sqlLabel(code: SQLWrapper, labels: Record<string, string>): SQL {
  const entries = Object.entries(labels);
  if (entries.length === 0) return sql`(${code})::text`;
  return sql`(case (${code})::text ${sql.join(
    entries.map(([value, label]) => sql`when ${value} then ${label}`),
    sql` `,
  )} else (${code})::text end)`;
}

/** As `neutralizeFormula`: text starting with = + - @ tab or CR gets a leading apostrophe. */
export const sqlNeutralized = (text: SQLWrapper): SQL =>
  sql`(case when left(${text}, 1) in ('=', '+', '-', '@', E'\\t', E'\\r') then '''' || ${text} else ${text} end)`;

// Characters XML 1.0 cannot carry (PostgreSQL text never holds U+0000).
const NOT_XML = String.fromCharCode(
  ...[...Array(32).keys()].filter((c) => c !== 0 && c !== 9 && c !== 10 && c !== 13),
  0xfffe,
  0xffff,
);

/**
 * Text as XML character data, as the XLSX writer's `escapeXml`; besides, LF, tab and backslash become
 * character references, so that a COPY in text format has nothing to escape and its bytes go into the
 * file as they are.
 */
export const sqlXmlText = (text: SQLWrapper): SQL =>
  sql`replace(replace(replace(replace(replace(replace(replace(replace(translate(${text}, ${NOT_XML}, ''),
    '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), E'\\r', '&#13;'), E'\\n', '&#10;'),
    E'\\t', '&#9;'), E'\\\\', '&#92;')`;

export type SqlXlsxCell = {
  value: SQLWrapper;
  /** A text cell (else a number with `style`). */
  text: boolean;
  /** Text of ours (times, labels, codes): never a formula, nothing to escape. */
  plain: boolean;
  style: number;
  letter: string;
};

// Text that needs escaping (XML specials, control characters, backslash): most cells have none and are
// only matched against this.
const XML_UNSAFE = `[&<>"\\\u0001-\u001f\ufffe\uffff]`;

/**
 * One sheet row, `<row r="n">` with its cells, as the XLSX writer writes it: empty cells left out, text
 * inline and neutralised, numbers with their column's style. `rowNumber` is text. One concat() per row:
 * a chain of || copies the row at every step.
 */
export function sqlXlsxRow(cells: SqlXlsxCell[], rowNumber: SQLWrapper): SQL {
  const parts = cells.map((cell) => {
    const { value } = cell;
    if (!cell.text) {
      return sql`case when ${value} <> '' then concat(${`<c r="${cell.letter}`}, ${rowNumber}, ${`" s="${cell.style}"><v>`}, ${value}, '</v></c>') end`;
    }
    const neutralized = sqlNeutralized(value);
    const escaped = cell.plain
      ? value
      : sql`(case when ${value} ~ ${XML_UNSAFE} then ${sqlXmlText(neutralized)} else ${neutralized} end)`;
    return sql`case when ${value} <> '' then concat(${`<c r="${cell.letter}`}, ${rowNumber}, '" t="inlineStr"><is><t xml:space="preserve">', ${escaped}, '</t></is></c>') end`;
  });
  return sql`concat('<row r="', ${rowNumber}, '">', ${sql.join(parts, sql`, `)}, '</row>')`;
}

const CRLF = Buffer.from('\r\n');

/**
 * PostgreSQL's CSV ends records with LF; RFC 4180 (and this export) wants CRLF. Turns each LF outside
 * quotes into CRLF (a quoted note keeps its own line breaks) and counts the records; keeps the quoting
 * state across chunks.
 */
export function csvRecordEnds(): (chunk: Buffer) => { data: Buffer; records: number } {
  let quoted = false;
  return (chunk) => {
    const parts: Buffer[] = [];
    let start = 0;
    let records = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === 0x22) quoted = !quoted;
      else if (byte === 0x0a && !quoted) {
        parts.push(chunk.subarray(start, i), CRLF);
        start = i + 1;
        records += 1;
      }
    }
    if (records === 0) return { data: chunk, records };
    parts.push(chunk.subarray(start));
    return { data: Buffer.concat(parts), records };
  };
}

/** Records (LF-ended lines) in a chunk of COPY text output whose lines hold no escapes. */
export function countLines(chunk: Buffer): number {
  let records = 0;
  for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) records += 1;
  return records;
}
