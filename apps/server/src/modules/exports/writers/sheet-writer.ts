import type { Row } from '../cells.ts';

export type { Row, WriterColumn } from '../cells.ts';

/** What the export loop writes into; the file streams out as it goes, so memory stays bounded. */
export interface SheetWriter {
  /** Writes rows; resolves when the stream can take more (backpressure). */
  write(rows: Row[]): Promise<void>;
  /**
   * Writes rows already in the file's encoding (from a COPY): CSV records, or XLSX `<row>` elements one
   * per line numbered within their sheet; `records` is how many end in this chunk.
   */
  writeFormatted(data: Buffer, records: number): Promise<void>;
  /** Ends the file; resolves when it is complete. */
  end(): Promise<void>;
  /** Stops writing (the partial file is dropped). */
  abort(): void;
}
