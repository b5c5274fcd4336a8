import { stringify } from 'csv-stringify/sync';
import { PassThrough, type Readable } from 'node:stream';
import { neutralizeFormula } from '../cells.ts';
import type { Row, SheetWriter, WriterColumn } from './sheet-writer.ts';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const OPTIONS = { record_delimiter: 'windows' } as const;

/**
 * CSV per RFC 4180 (CRLF, quotes where needed) with a UTF-8 BOM, so Excel opens Chinese and Vietnamese
 * text correctly. csv-stringify's own escape_formulas would also quote the amounts we wrote ("-12.50"),
 * so text columns are neutralised here and number columns pass as they are. Each batch of rows is
 * stringified at once and written as one chunk (a stream write per row costs more than the row itself).
 */
export function createCsvWriter(columns: WriterColumn[]): { stream: Readable; writer: SheetWriter } {
  const stream = new PassThrough({ highWaterMark: 1024 * 1024 });
  const isText = columns.map((c) => c.type === 'text');
  const waitDrain = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        stream.off('drain', done);
        stream.off('close', done);
        resolve();
      };
      stream.once('drain', done);
      stream.once('close', done);
    });
  stream.write(BOM);
  stream.write(stringify([columns.map((c) => neutralizeFormula(c.title))], OPTIONS));
  return {
    stream,
    writer: {
      async write(rows: Row[]) {
        const records = new Array<string[]>(rows.length);
        for (let r = 0; r < rows.length; r++) {
          const row = rows[r]!;
          const record = new Array<string>(row.length);
          for (let i = 0; i < row.length; i++) {
            const value = row[i] ?? '';
            record[i] = isText[i] ? neutralizeFormula(value) : value;
          }
          records[r] = record;
        }
        if (!stream.write(stringify(records, OPTIONS))) await waitDrain();
      },
      async writeFormatted(data: Buffer) {
        if (!stream.write(data)) await waitDrain();
      },
      end: () =>
        new Promise<void>((resolve) => {
          stream.end(() => resolve());
        }),
      // Destroyed without an error: the caller already has it, and nobody listens for one here.
      abort: () => stream.destroy(),
    },
  };
}
