import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import mt940, { type Mt940Statement } from 'mt940js';
import { AmountError, type Currency, toMinor } from '@paydesk/shared';
import type { StatementFormat } from '@paydesk/shared/channels/reconciliation.schemas.ts';

// A bank statement's credit lines (DESIGN 13), read whole before anything is applied: a file that is
// truncated, not UTF-8, with columns we do not know, a line twice, or an amount we cannot read is refused
// with the line and the reason, and nothing of it is applied. Debit lines (money leaving the account) are
// left out: a collection channel's reconciliation is of money received.

export type StatementLine = {
  /** Where the line is in the file (1-based), for messages. */
  line: number;
  txnId: string;
  reference: string;
  amountMinor: bigint;
  /** When it was booked; for a line that gives a day alone, that day's midnight UTC (see dateOnly). */
  paidAt: Date;
  /** The line gives the day but no time: the importer takes the start of the statement's day. */
  dateOnly: boolean;
  payer: string | null;
};

export class StatementError extends Error {
  readonly line: number | null;
  constructor(line: number | null, reason: string) {
    super(line === null ? reason : `Line ${line}: ${reason}`);
    this.line = line;
  }
}

/** The CSV columns a channel's bank uses (channels.settings.statement_columns), by what they hold. */
export type CsvColumns = {
  txn_id: string;
  date: string;
  amount: string;
  reference: string;
  payer?: string;
  /** A column saying CR/DR (credit/debit); without it, a negative amount is a debit. */
  direction?: string;
};

export const DEFAULT_CSV_COLUMNS: CsvColumns = {
  txn_id: 'Transaction ID',
  date: 'Date',
  amount: 'Amount',
  reference: 'Reference',
  payer: 'Payer',
};

/** The text of a file that must be UTF-8: refused at the first line that is not. */
export function utf8Text(content: Buffer): string {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    return decoder.decode(content).replace(/^\uFEFF/, '');
  } catch {
    let line = 1;
    let start = 0;
    for (let i = 0; i <= content.length; i += 1) {
      if (i === content.length || content[i] === 0x0a) {
        try {
          decoder.decode(content.subarray(start, i));
        } catch {
          break;
        }
        line += 1;
        start = i + 1;
      }
    }
    throw new StatementError(line, 'the file is not UTF-8 text (save it as UTF-8 and import it again).');
  }
}

/** A decimal amount as the statement writes it: digits, an optional sign and a point. */
function amountOf(text: string, currency: Currency, line: number): bigint {
  const trimmed = text.trim();
  if (!/^-?\d+(\.\d+)?$/.test(trimmed))
    throw new StatementError(line, `the amount "${text}" is not a decimal number like 1500.00.`);
  const negative = trimmed.startsWith('-');
  try {
    const minor = toMinor(negative ? trimmed.slice(1) : trimmed, currency);
    return negative ? -minor : minor;
  } catch (error) {
    if (error instanceof AmountError)
      throw new StatementError(line, `the amount "${text}": ${error.message}`);
    throw error;
  }
}

function dateOf(text: string, line: number): Date {
  const trimmed = text.trim();
  const date = /^\d{4}-\d{2}-\d{2}$/.test(trimmed)
    ? new Date(`${trimmed}T00:00:00Z`)
    : /^\d{4}-\d{2}-\d{2}T/.test(trimmed)
      ? new Date(trimmed)
      : new Date(Number.NaN);
  if (Number.isNaN(date.getTime()))
    throw new StatementError(
      line,
      `the date "${text}" is not a date like 2026-11-27 or 2026-11-27T10:30:00Z.`,
    );
  return date;
}

function readCsv(text: string, currency: Currency, columns: CsvColumns): StatementLine[] {
  let records: string[][];
  try {
    records = parseCsv(text, { bom: true, skip_empty_lines: true, relax_column_count: false });
  } catch (error) {
    const { lines } = error as { lines?: number };
    throw new StatementError(lines ?? null, `the file is not well-formed CSV (${(error as Error).message}).`);
  }
  const [header, ...rows] = records;
  if (!header) throw new StatementError(null, 'the file is empty.');
  const known = new Map(Object.entries(columns).map(([field, name]) => [name as string, field]));
  const index: Partial<Record<keyof CsvColumns, number>> = {};
  header.forEach((name, i) => {
    const field = known.get(name.trim());
    if (!field)
      throw new StatementError(1, `the column "${name}" is not one this channel's statements have.`);
    index[field as keyof CsvColumns] = i;
  });
  for (const field of ['txn_id', 'date', 'amount', 'reference'] as const) {
    if (index[field] === undefined) throw new StatementError(1, `the column "${columns[field]}" is missing.`);
  }
  const lines: StatementLine[] = [];
  rows.forEach((row, i) => {
    const line = i + 2;
    const cell = (field: keyof CsvColumns) => (index[field] === undefined ? '' : (row[index[field]] ?? ''));
    const txnId = cell('txn_id').trim();
    if (!txnId) throw new StatementError(line, `the transaction id is empty.`);
    let amountMinor = amountOf(cell('amount'), currency, line);
    const direction = cell('direction').trim().toUpperCase();
    if (direction === 'DR' || direction === 'D' || direction === 'DEBIT') amountMinor = -amountMinor;
    lines.push({
      line,
      txnId,
      reference: cell('reference'),
      amountMinor,
      paidAt: dateOf(cell('date'), line),
      dateOnly: /^\d{4}-\d{2}-\d{2}$/.test(cell('date').trim()),
      payer: cell('payer').trim() || null,
    });
  });
  return lines;
}

/** The line of the n-th :61: tag, for messages about one transaction of an MT940 file. */
const lineOfTag61 = (text: string, n: number): number | null => {
  const lines = text.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i += 1) {
    if (lines[i].startsWith(':61:') && seen++ === n) return i + 1;
  }
  return null;
};

function readMt940(text: string, currency: Currency): StatementLine[] {
  let statements: Mt940Statement[];
  try {
    statements = new mt940.Parser().parse(text.replace(/\r\n/g, '\n'));
  } catch (error) {
    throw new StatementError(null, `the MT940 file cannot be read (${(error as Error).message}).`);
  }
  if (statements.length === 0) throw new StatementError(null, 'the MT940 file has no statement.');
  const lines: StatementLine[] = [];
  let n = 0;
  for (const statement of statements) {
    if (statement.currency !== currency)
      throw new StatementError(
        null,
        `the statement is in ${statement.currency}, the channel in ${currency}.`,
      );
    for (const t of statement.transactions) {
      const line = lineOfTag61(text.replace(/\r\n/g, '\n'), n) ?? 0;
      n += 1;
      const txnId = (t.bankReference || t.reference || '').trim();
      if (!txnId || txnId === 'NONREF')
        throw new StatementError(line, 'the transaction has no bank reference.');
      const amount = Math.abs(t.amount).toFixed(Math.max(0, (String(t.amount).split('.')[1] ?? '').length));
      const minor = amountOf(amount, currency, line);
      lines.push({
        line,
        txnId,
        reference: `${t.details ?? ''} ${t.reference ?? ''}`.trim(),
        amountMinor: t.amount < 0 !== t.isReversal ? -minor : minor,
        paidAt: t.entryDate ?? t.date,
        dateOnly: true,
        payer: null,
      });
    }
  }
  return lines;
}

type XmlNode = Record<string, unknown>;
const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const textOf = (value: unknown): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'object'
      ? String((value as XmlNode)['#text'] ?? '')
      : String(value);
const at = (node: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((current, key) => (current as XmlNode | undefined)?.[key], node);

function readCamt053(text: string, currency: Currency): StatementLine[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    throw new StatementError(valid.err.line, `the XML is not well-formed (${valid.err.msg}).`);
  const document = new XMLParser({
    ignoreAttributes: false,
    removeNSPrefix: true,
    parseTagValue: false,
    attributeNamePrefix: '@',
  }).parse(text) as XmlNode;
  const statements = asArray(at(document, 'Document', 'BkToCstmrStmt', 'Stmt') as XmlNode[] | XmlNode);
  if (statements.length === 0)
    throw new StatementError(null, 'the file is not an ISO 20022 camt.053 statement.');
  const lines: StatementLine[] = [];
  const entryLines = text.split('\n').flatMap((l, i) => (/<(\w+:)?Ntry>/.test(l) ? [i + 1] : []));
  let n = 0;
  for (const statement of statements) {
    for (const entry of asArray(statement.Ntry as XmlNode[] | XmlNode)) {
      const line = entryLines[n] ?? 0;
      n += 1;
      const amount = at(entry, 'Amt') as XmlNode | string;
      const ccy = typeof amount === 'object' ? String(amount['@Ccy'] ?? '') : '';
      if (ccy !== currency)
        throw new StatementError(
          line,
          `the entry is in ${ccy || 'no currency'}, the channel in ${currency}.`,
        );
      const minor = amountOf(textOf(amount), currency, line);
      const direction = textOf(at(entry, 'CdtDbtInd'));
      if (direction !== 'CRDT' && direction !== 'DBIT')
        throw new StatementError(line, 'CdtDbtInd must be CRDT or DBIT.');
      const details = at(entry, 'NtryDtls', 'TxDtls');
      const first = (Array.isArray(details) ? details[0] : details) as XmlNode | undefined;
      const txnId = textOf(at(entry, 'AcctSvcrRef')) || textOf(at(first, 'Refs', 'AcctSvcrRef'));
      if (!txnId) throw new StatementError(line, 'the entry has no AcctSvcrRef (the bank reference).');
      const booked = textOf(at(entry, 'BookgDt', 'DtTm')) || textOf(at(entry, 'BookgDt', 'Dt'));
      const remittance = asArray(at(first, 'RmtInf', 'Ustrd') as unknown[] | unknown)
        .map(textOf)
        .join(' ');
      lines.push({
        line,
        txnId,
        reference: `${remittance} ${textOf(at(first, 'Refs', 'EndToEndId'))}`.trim(),
        amountMinor: direction === 'DBIT' ? -minor : minor,
        paidAt: dateOf(booked, line),
        dateOnly: !booked.includes('T'),
        payer:
          textOf(at(first, 'RltdPties', 'Dbtr', 'Nm')) ||
          textOf(at(first, 'RltdPties', 'Dbtr', 'Pty', 'Nm')) ||
          null,
      });
    }
  }
  return lines;
}

/**
 * The credit lines of a statement, or a StatementError naming the first problem's line. The same
 * transaction id twice in one file is refused: a bank lists a payment once.
 */
export function parseStatement(
  format: StatementFormat,
  content: Buffer,
  currency: Currency,
  columns: CsvColumns = DEFAULT_CSV_COLUMNS,
): { credits: StatementLine[]; debits: number } {
  const text = utf8Text(content);
  if (!text.trim()) throw new StatementError(null, 'the file is empty.');
  const all =
    format === 'csv'
      ? readCsv(text, currency, columns)
      : format === 'mt940'
        ? readMt940(text, currency)
        : readCamt053(text, currency);
  const seen = new Map<string, number>();
  for (const line of all) {
    const first = seen.get(line.txnId);
    if (first !== undefined)
      throw new StatementError(
        line.line,
        `the transaction ${line.txnId} is listed twice (first on line ${first}).`,
      );
    seen.set(line.txnId, line.line);
  }
  const credits = all.filter((line) => line.amountMinor > 0n);
  return { credits, debits: all.length - credits.length };
}
