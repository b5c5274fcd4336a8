import { parse } from 'csv-parse/sync';
import readXlsxFile from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import { localTimeFormatter, neutralizeFormula } from '../cells.ts';
import { countLines, csvRecordEnds } from '../sql-cells.ts';
import { createCsvWriter } from './csv-writer.ts';
import type { WriterColumn } from './sheet-writer.ts';
import { createXlsxWriter } from './xlsx-writer.ts';

const COLUMNS: WriterColumn[] = [
  { title: 'Note', type: 'text' },
  { title: '金额 Số tiền', type: 'number', decimals: 2 },
];
const DANGEROUS = [
  '=1+1',
  '+1',
  '-1',
  '@SUM(A1)',
  '\tx',
  '\rx',
  'plain',
  '代收 thanh toán "quoted", line\nbreak',
];

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('formula neutralising', () => {
  it("prefixes text that a spreadsheet would read as a formula with '", () => {
    expect(DANGEROUS.map(neutralizeFormula)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      'plain',
      '代收 thanh toán "quoted", line\nbreak',
    ]);
  });
});

describe('local times', () => {
  it('writes instants in the zone, across a daylight-saving change', () => {
    const shanghai = localTimeFormatter('Asia/Shanghai');
    expect(shanghai(new Date('2026-03-01T16:30:05Z'))).toBe('2026-03-02 00:30:05');
    const saoPaulo = localTimeFormatter('-03:00');
    expect(saoPaulo(new Date('2026-03-01T01:00:00Z'))).toBe('2026-02-28 22:00:00');
    const newYork = localTimeFormatter('America/New_York');
    expect(newYork(new Date('2026-03-08T06:59:59Z'))).toBe('2026-03-08 01:59:59');
    expect(newYork(new Date('2026-03-08T07:00:00Z'))).toBe('2026-03-08 03:00:00');
    expect(shanghai(null)).toBe('');
  });
});

describe('CSV', () => {
  it('is RFC 4180 with a BOM, text neutralised, our numbers left as numbers', async () => {
    const { stream, writer } = createCsvWriter(COLUMNS);
    const done = bytesOf(stream);
    await writer.write(DANGEROUS.map((note, i) => [note, i % 2 ? '-12.50' : '1234.05']));
    await writer.end();
    const bytes = await done;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = bytes.subarray(3).toString('utf8');
    expect(csv.startsWith('Note,金额 Số tiền\r\n')).toBe(true);
    const records = parse(csv) as string[][];
    expect(records[0]).toEqual(['Note', '金额 Số tiền']);
    expect(records.slice(1).map((r) => r[0])).toEqual(DANGEROUS.map(neutralizeFormula));
    expect(records[2]![1]).toBe('-12.50');
    expect(csv).toContain('\r\n');
  });
});

describe('XLSX', () => {
  it('reads back with a library: inline text neutralised, numbers numeric, Chinese and Vietnamese intact', async () => {
    const { stream, writer } = createXlsxWriter(COLUMNS, { sheetTitle: 'Giao dịch' });
    const file = bytesOf(stream);
    await writer.write(DANGEROUS.map((note, i) => [note, i % 2 ? '-12.50' : '1234.05']));
    await writer.end();
    const sheets = await readXlsxFile(await file);
    expect(sheets.map((s) => s.sheet)).toEqual(['Giao dịch']);
    const [header, ...rows] = sheets[0]!.data;
    expect(header).toEqual(['Note', '金额 Số tiền']);
    // This reader folds a tab or CR inside a cell's text (Excel keeps them); the leading ' is what counts.
    const squash = (t: unknown) => String(t).replace(/\s+/g, ' ');
    expect(rows.map((r) => squash(r[0]))).toEqual(DANGEROUS.map(neutralizeFormula).map(squash));
    expect(rows.slice(0, 6).every((r) => String(r[0]).startsWith("'"))).toBe(true);
    expect(rows.map((r) => r[1])).toEqual(DANGEROUS.map((_, i) => (i % 2 ? -12.5 : 1234.05)));
  });

  it('continues on a second sheet past the per-sheet row limit (header on each)', async () => {
    const { stream, writer } = createXlsxWriter(COLUMNS, { maxRowsPerSheet: 4, sheetTitle: 'Transactions' });
    const file = bytesOf(stream);
    const rows = Array.from({ length: 7 }, (_, i) => [`row ${i}`, String(i)]);
    await writer.write(rows.slice(0, 2));
    await writer.write(rows.slice(2));
    await writer.end();
    const sheets = await readXlsxFile(await file);
    expect(sheets.map((s) => s.sheet)).toEqual(['Transactions', 'Transactions (2)', 'Transactions (3)']);
    expect(sheets.map((s) => s.data.length)).toEqual([4, 4, 2]);
    expect(sheets.flatMap((s) => s.data.slice(1).map((r) => r[0]))).toEqual(rows.map((r) => r[0]));
    expect(sheets[1]!.data[0]).toEqual(['Note', '金额 Số tiền']);
  });
});

describe('rows already encoded (a COPY straight into the file)', () => {
  it('CSV: turns the record ends outside quotes into CRLF, across chunk boundaries, and counts records', () => {
    const ends = csvRecordEnds();
    const body = 'a,1\n"multi\nline ""quoted""",2\nc,3\n';
    // Cut inside the quoted field, right after an opening quote and at a record end.
    const cuts = [0, 5, 9, 24, 31, body.length];
    const out = cuts.slice(1).map((to, i) => ends(Buffer.from(body.slice(cuts[i], to))));
    expect(Buffer.concat(out.map((o) => o.data)).toString()).toBe(
      'a,1\r\n"multi\nline ""quoted""",2\r\nc,3\r\n',
    );
    expect(out.reduce((n, o) => n + o.records, 0)).toBe(3);
    expect(parse(Buffer.concat(out.map((o) => o.data)).toString())).toEqual([
      ['a', '1'],
      ['multi\nline "quoted"', '2'],
      ['c', '3'],
    ]);
  });

  it('XLSX: continues on the next sheet after its last row, whatever the chunks cut', async () => {
    const { stream, writer } = createXlsxWriter(COLUMNS, { maxRowsPerSheet: 3, sheetTitle: 'Rows' });
    const bytes = bytesOf(stream);
    const row = (n: number, note: string, amount: string) =>
      `<row r="${n}"><c r="A${n}" t="inlineStr"><is><t xml:space="preserve">${note}</t></is></c><c r="B${n}" s="3"><v>${amount}</v></c></row>\n`;
    // Five rows numbered within their sheets of two (the header takes the first row of each).
    const body = [
      row(2, 'one', '1.50'),
      row(3, 'two', '-2.00'),
      row(2, 'three', '3.25'),
      row(3, '代收 &amp; four', '4.00'),
      row(2, 'five', '5.00'),
    ].join('');
    const data = Buffer.from(body);
    for (const [from, to] of [
      [0, 40],
      [40, 300],
      [300, data.length],
    ] as const) {
      const chunk = data.subarray(from, to);
      await writer.writeFormatted(chunk, countLines(chunk));
    }
    await writer.end();
    const sheets = await readXlsxFile(await bytes);
    expect(sheets.map((s) => s.sheet)).toEqual(['Rows', 'Rows (2)', 'Rows (3)']);
    expect(sheets.map((s) => s.data)).toEqual([
      [
        ['Note', '金额 Số tiền'],
        ['one', 1.5],
        ['two', -2],
      ],
      [
        ['Note', '金额 Số tiền'],
        ['three', 3.25],
        ['代收 & four', 4],
      ],
      [
        ['Note', '金额 Số tiền'],
        ['five', 5],
      ],
    ]);
  });
});
