import { PassThrough, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { columnLetters, MAX_DECIMALS, neutralizeFormula, numberStyle } from '../cells.ts';
import type { Row, SheetWriter, WriterColumn } from './sheet-writer.ts';

/** Excel's rows per sheet, the header row included. */
export const EXCEL_MAX_ROWS = 1_048_576;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

// Control characters XML 1.0 cannot carry at all (a tab, LF and CR can, CR as a reference).
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const XML_SPECIAL = /[&<>"\r]/g;
const XML_ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\r': '&#13;',
};
const escapeXml = (text: string) => text.replace(NOT_XML, '').replace(XML_SPECIAL, (c) => XML_ENTITY[c] ?? c);

function stylesXml(): string {
  const formats = Array.from({ length: MAX_DECIMALS + 1 }, (_, d) =>
    d === 0 ? '' : `<numFmt numFmtId="${164 + d}" formatCode="0.${'0'.repeat(d)}"/>`,
  ).join('');
  const xfs = Array.from(
    { length: MAX_DECIMALS + 1 },
    (_, d) =>
      `<xf numFmtId="${d === 0 ? 1 : 164 + d}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`,
  ).join('');
  return (
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}"><numFmts count="${MAX_DECIMALS}">${formats}</numFmts>` +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${MAX_DECIMALS + 3}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${xfs}` +
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
  );
}
const HEADER_STYLE = MAX_DECIMALS + 2;

// A sheet name: at most 31 characters, none of : \ / ? * [ ].
const sheetName = (base: string, index: number) => {
  const clean = base.replace(/[:\\/?*[\]]/g, ' ').slice(0, 26) || 'Sheet';
  return index === 1 ? clean : `${clean} (${index})`;
};

export type XlsxOptions = {
  /** Rows per sheet, the header included; more continue on the next sheet (Excel's limit by default). */
  maxRowsPerSheet?: number;
  /** The sheets' name (the list's), numbered from the second on. */
  sheetTitle?: string;
};

/**
 * A streaming XLSX writer: each sheet's XML is written row by row into a deflated zip entry, so memory
 * stays bounded whatever the row count (no shared-strings table: text is written inline). Text cells are
 * neutralised like CSV's; number columns are numeric cells with the currency's decimals.
 */
export function createXlsxWriter(
  columns: WriterColumn[],
  options: XlsxOptions = {},
): { stream: Readable; writer: SheetWriter } {
  const maxRows = options.maxRowsPerSheet ?? EXCEL_MAX_ROWS;
  if (maxRows < 2) throw new Error('A sheet needs room for its header and a row.');
  const title = options.sheetTitle ?? 'Sheet';
  const zip = new ZipFile();
  const isText = columns.map((c) => c.type === 'text');
  const styleOf = columns.map((c) => numberStyle(c.decimals ?? 0));
  // Cell references (A1, B1, ...): Excel reads cells without them, other readers need them.
  const letters = columns.map((_, i) => columnLetters(i));
  const header = `<row r="1">${columns
    .map(
      (c, i) =>
        `<c r="${letters[i]}1" t="inlineStr" s="${HEADER_STYLE}"><is><t xml:space="preserve">${escapeXml(neutralizeFormula(c.title))}</t></is></c>`,
    )
    .join('')}</row>`;
  const cols = `<cols>${columns
    .map(
      (c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.type === 'text' ? 24 : 16}" customWidth="1"/>`,
    )
    .join('')}</cols>`;

  let sheets = 0;
  let sheet: PassThrough | null = null;
  let rowsInSheet = 0;

  const openSheet = () => {
    sheets += 1;
    sheet = new PassThrough({ highWaterMark: 256 * 1024 });
    // Level 1: the sheet XML still shrinks about 8 times, at a fraction of level 6's time.
    zip.addReadStream(sheet, `xl/worksheets/sheet${sheets}.xml`, { compressionLevel: 1, mtime: new Date(0) });
    sheet.write(
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>${cols}<sheetData>${header}`,
    );
    rowsInSheet = 1;
  };
  const closeSheet = () => {
    sheet?.end('</sheetData></worksheet>');
    sheet = null;
  };
  const waitDrain = (stream: PassThrough) =>
    new Promise<void>((resolve) => {
      stream.once('drain', resolve);
    });

  const output = zip.outputStream as unknown as Readable;
  openSheet();
  return {
    stream: output,
    writer: {
      async write(rows: Row[]) {
        let chunk = '';
        for (const row of rows) {
          if (rowsInSheet >= maxRows) {
            if (chunk) sheet!.write(chunk);
            chunk = '';
            closeSheet();
            openSheet();
          }
          rowsInSheet += 1;
          const n = rowsInSheet;
          chunk += `<row r="${n}">`;
          for (let i = 0; i < row.length; i++) {
            const value = row[i];
            if (value === null || value === undefined || value === '') {
              continue;
            } else if (isText[i]) {
              chunk += `<c r="${letters[i]}${n}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(neutralizeFormula(value))}</t></is></c>`;
            } else {
              chunk += `<c r="${letters[i]}${n}" s="${styleOf[i]}"><v>${value}</v></c>`;
            }
          }
          chunk += '</row>';
        }
        const current = sheet!;
        if (!current.write(chunk)) await waitDrain(current);
      },
      async writeFormatted(data: Buffer) {
        // Each line is a row numbered within its sheet: a sheet ends after its last row's line break.
        let at = 0;
        while (at < data.length) {
          if (rowsInSheet >= maxRows) {
            closeSheet();
            openSheet();
          }
          let end = at;
          let room = maxRows - rowsInSheet;
          while (room > 0) {
            const lineEnd = data.indexOf(0x0a, end);
            if (lineEnd === -1) break;
            end = lineEnd + 1;
            room -= 1;
            rowsInSheet += 1;
          }
          // The rest of the chunk is a row begun here and ended in the next chunk.
          if (room > 0) end = data.length;
          const current = sheet!;
          if (!current.write(data.subarray(at, end))) await waitDrain(current);
          at = end;
        }
      },
      async end() {
        closeSheet();
        const names = Array.from({ length: sheets }, (_, i) => sheetName(title, i + 1));
        const add = (name: string, xml: string) =>
          zip.addBuffer(Buffer.from(xml, 'utf8'), name, { compressionLevel: 6, mtime: new Date(0) });
        add(
          'xl/workbook.xml',
          `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${names
            .map((n, i) => `<sheet name="${escapeXml(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
            .join('')}</sheets></workbook>`,
        );
        add(
          'xl/_rels/workbook.xml.rels',
          `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${names
            .map(
              (_, i) =>
                `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
            )
            .join(
              '',
            )}<Relationship Id="rId${sheets + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
        );
        add('xl/styles.xml', stylesXml());
        add(
          '_rels/.rels',
          `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
        );
        add(
          '[Content_Types].xml',
          `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${names
            .map(
              (_, i) =>
                `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
            )
            .join('')}</Types>`,
        );
        zip.end();
      },
      // Destroyed without an error: the caller already has it, and nobody listens for one here.
      abort() {
        sheet?.destroy();
        output.destroy();
      },
    },
  };
}
