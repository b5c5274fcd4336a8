import { type Currency, ERROR_CODES } from '@paydesk/shared';
import type { Perm } from '@paydesk/shared/auth/roles.ts';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import {
  type CreateExportBody,
  EXPORT_KEEP_DAYS,
  EXPORT_MAX_WAITING,
  type ExportFormat,
  type ExportKind,
  type ExportListQuery,
  type ExportListResponse,
  type ExportLocale,
  type ExportStatus,
  type ExportTask,
} from '@paydesk/shared/exports/exports.schemas.ts';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db, Tx } from '../../db/client.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage/index.ts';
import { type ExportTaskRow, exportsRepository as repo } from './exports.repository.ts';
import type { ExportKindHandler } from './kinds/export-kind.ts';
import { createCsvWriter } from './writers/csv-writer.ts';
import type { WriterColumn } from './writers/sheet-writer.ts';
import { createXlsxWriter, EXCEL_MAX_ROWS } from './writers/xlsx-writer.ts';
import { isoOrNull } from '../../lib/timezone.ts';

// Offline exports (DESIGN sections 2, 4, 8 and 9). A task is created with a snapshot of its list (the
// newest row's id and the matching count), then run by the export.run job: rows are read newest first in
// keyset batches straight into a streaming writer and through storage.put, so memory stays bounded (fund
// flows, whose rows never change, are one COPY on PostgreSQL: kinds/sql-export-kind.ts). At
// most `maxRunningPerMerchant` run at once per merchant; the one that ends starts the next waiting one.

export const EXPORT_QUEUE = 'export.run';

/** Who asks for an export, with what they may see and how they read times and text. */
/** The exports of lists that are live only (DESIGN 12): refused in test mode, as their pages are. */
const LIVE_ONLY_KINDS: ReadonlySet<ExportKind> = new Set(['recharges', 'withdrawals']);

export type ExportActor = {
  userId: number;
  merchantId: number;
  /** The console's mode: top-ups and withdrawals are live only (DESIGN 12), their exports too. */
  mode: Mode;
  perms: readonly Perm[];
  timeZone: string;
  locale: ExportLocale;
};

/** Who reads exports: an export is theirs to see only by what they may view (see visibleKinds). */
export type ExportViewer = Pick<ExportActor, 'merchantId' | 'perms'>;

type Deps = {
  db: Db;
  jobs: JobQueue;
  storage: FileStorage;
  now: () => Date;
  /** Every kind that exports (exportKindHandlers). */
  kinds: Record<ExportKind, ExportKindHandler>;
  /** Running exports per merchant; others wait. */
  maxRunningPerMerchant?: number;
  /** Unfinished (waiting or running) exports per merchant; one more is refused. */
  maxWaitingPerMerchant?: number;
  /** Rows read per query. */
  batchSize?: number;
  /** XLSX rows per sheet (Excel's 1,048,576 by default; tests pass a few). */
  maxRowsPerSheet?: number;
  /** A running export with no progress for this long is taken as interrupted (its process died). */
  stallAfterMs?: number;
};

const DAY_MS = 86_400_000;
// Paging parameters of the list are not filters: an export takes every page.
const PAGING = new Set(['page', 'per_page', 'cursor']);
const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** "fund_flows-20261123-0930-42.csv": the list, when it was asked for (UTC), and the task. */
export function exportFileName(task: Pick<ExportTaskRow, 'id' | 'kind' | 'format' | 'createdAt'>): string {
  const at = task.createdAt;
  const stamp = `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}-${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}`;
  return `${task.kind}-${stamp}-${task.id}.${task.format}`;
}

function present(row: ExportTaskRow): ExportTask {
  return {
    id: row.id,
    kind: row.kind as ExportKind,
    format: row.format as ExportFormat,
    status: row.status as ExportStatus,
    filters: row.filters,
    locale: row.locale as ExportLocale,
    rows_done: row.rowsDone,
    rows_expected: row.rowsExpected,
    row_count: row.status === 'success' ? row.rowsDone : null,
    sums: row.status === 'success' ? (row.sums ?? {}) : null,
    size: row.size ?? null,
    file_name: exportFileName(row),
    error: row.error,
    created_at: row.createdAt.toISOString(),
    started_at: isoOrNull(row.startedAt),
    finished_at: isoOrNull(row.finishedAt),
    expires_at: isoOrNull(row.expiresAt),
    expired: row.expiredAt !== null,
  };
}

/** What a failure says on the Exports page: ours, never a stack or a path. */
const reasonOf = (error: unknown): string => {
  if (error instanceof AppError) return error.message;
  const code = (error as { code?: string })?.code;
  if (code === '57014')
    return 'The database took too long to read the rows. Please narrow the filter and retry.';
  return 'The file could not be written. Please retry.';
};

export type ExportsService = ReturnType<typeof createExportsService>;

export function createExportsService({
  db,
  jobs,
  storage,
  now,
  kinds,
  maxRunningPerMerchant = 2,
  maxWaitingPerMerchant = EXPORT_MAX_WAITING,
  batchSize = 5000,
  maxRowsPerSheet,
  stallAfterMs = 10 * 60_000,
}: Deps) {
  const handlerOf = (kind: string): ExportKindHandler => {
    const handler = kinds[kind as ExportKind];
    if (!handler) throw new AppError(422, `Exports of ${kind} are not available.`);
    return handler;
  };

  // One request must not queue unbounded work (DESIGN 9). Counted under the merchant's lock, in the
  // transaction that then adds the task: two concurrent requests cannot both take the last place.
  async function assertRoomToWait(tx: Tx, merchantId: number) {
    await repo.lockMerchant(tx, merchantId);
    if ((await repo.countUnfinished(tx, merchantId)) >= maxWaitingPerMerchant) {
      throw new AppError(
        429,
        `You already have ${maxWaitingPerMerchant} exports waiting. Please wait for one to finish, then export again.`,
        { code: ERROR_CODES.tooManyExports },
      );
    }
  }

  /** Sends the merchant's oldest waiting tasks to the queue, as many as may run (under its lock). */
  async function startNext(tx: Tx, merchantId: number) {
    for (const { id } of await repo.waiting(tx, merchantId, maxRunningPerMerchant)) {
      await jobs.send(tx, EXPORT_QUEUE, { id });
    }
  }

  async function create(
    actor: ExportActor,
    body: CreateExportBody & { locale: ExportLocale },
  ): Promise<ExportTask> {
    const handler = handlerOf(body.kind);
    if (actor.mode === 'test' && LIVE_ONLY_KINDS.has(body.kind)) {
      throw conflict(
        'Top-ups and withdrawals are live only: switch off test mode to export them.',
        ERROR_CODES.liveOnly,
      );
    }
    // Exporting a list shows its rows: the list's own permission is needed too.
    if (!actor.perms.includes(handler.perm)) {
      throw forbidden('You do not have permission to do this. Please contact your administrator.');
    }
    const filters = Object.fromEntries(
      Object.entries(body.filters ?? {}).filter(
        ([key, value]) => !PAGING.has(key) && value !== '' && value !== null,
      ),
    );
    const prepared = handler.prepare(filters, { merchantId: actor.merchantId, timeZone: actor.timeZone });
    const row = await db.transaction(async (tx) => {
      const maxRowId = await prepared.maxId(tx);
      const rowsExpected = await prepared.count(tx);
      await assertRoomToWait(tx, actor.merchantId);
      const task = await repo.insert(tx, {
        merchantId: actor.merchantId,
        userId: actor.userId,
        kind: body.kind,
        format: body.format,
        filters,
        timeZone: actor.timeZone,
        locale: body.locale,
        maxRowId,
        rowsExpected,
        createdAt: now(),
      });
      await jobs.send(tx, EXPORT_QUEUE, { id: task.id });
      return task;
    });
    return present(row);
  }

  // An export shows the rows, sums and filters of its list: only those who may view that list (and
  // exports) see it at all (DESIGN 9). The others' kinds are left out in SQL, so totals and pages agree.
  const visibleKinds = (perms: readonly Perm[]): ExportKind[] =>
    perms.includes('export:view')
      ? Object.values(kinds)
          .filter((handler) => perms.includes(handler.perm))
          .map((handler) => handler.kind)
      : [];

  async function list(viewer: ExportViewer, query: ExportListQuery): Promise<ExportListResponse> {
    const visible = visibleKinds(viewer.perms);
    const [rows, total] = await Promise.all([
      repo.page(db, viewer.merchantId, visible, query.per_page, (query.page - 1) * query.per_page),
      repo.count(db, viewer.merchantId, visible),
    ]);
    return { data: rows.map(present), meta: { page: query.page, per_page: query.per_page, total } };
  }

  async function findVisible(viewer: ExportViewer, id: number): Promise<ExportTaskRow> {
    const row = await repo.findVisible(db, viewer.merchantId, visibleKinds(viewer.perms), id);
    // Another merchant's task, or one of a list the user may not view, reads as one that does not exist.
    if (!row) throw notFound('The export was not found.');
    return row;
  }

  async function detail(viewer: ExportViewer, id: number): Promise<ExportTask> {
    return present(await findVisible(viewer, id));
  }

  /** The file of a finished export, with what the download needs. */
  async function download(
    viewer: ExportViewer,
    id: number,
  ): Promise<{ stream: Readable; fileName: string; contentType: string; size: number | null }> {
    const row = await findVisible(viewer, id);
    if (row.expiredAt) {
      throw new AppError(
        410,
        `This export's file was deleted after ${EXPORT_KEEP_DAYS} days. Please export again.`,
        {
          code: ERROR_CODES.exportExpired,
        },
      );
    }
    if (row.status !== 'success' || !row.fileKey) {
      throw conflict('The export is not finished yet.', ERROR_CODES.exportNotReady);
    }
    const stream = await storage.get(row.fileKey);
    return {
      stream,
      fileName: exportFileName(row),
      contentType: CONTENT_TYPES[row.format as ExportFormat],
      size: row.size ?? null,
    };
  }

  /** A failed task runs again, over the rows its filter matches now. */
  async function retry(actor: ExportActor, id: number): Promise<ExportTask> {
    // A task the user sees is of a list they may view: with export:create (the route's), they may run it.
    const task = await findVisible(actor, id);
    if (task.status !== 'failed') {
      throw conflict('Only a failed export can be retried.', ERROR_CODES.exportNotRetryable);
    }
    const handler = handlerOf(task.kind);
    const prepared = handler.prepare(task.filters, { merchantId: task.merchantId, timeZone: task.timeZone });
    const row = await db.transaction(async (tx) => {
      const maxRowId = await prepared.maxId(tx);
      const rowsExpected = await prepared.count(tx);
      await assertRoomToWait(tx, task.merchantId);
      const requeued = await repo.requeue(tx, task.merchantId, task.id, { maxRowId, rowsExpected });
      if (!requeued) throw conflict('Only a failed export can be retried.', ERROR_CODES.exportNotRetryable);
      await jobs.send(tx, EXPORT_QUEUE, { id: task.id });
      return requeued;
    });
    return present(row);
  }

  function writerFor(task: ExportTaskRow, handler: ExportKindHandler, columns: WriterColumn[]) {
    if (task.format === 'csv') return createCsvWriter(columns);
    return createXlsxWriter(columns, {
      sheetTitle: handler.title[task.locale as ExportLocale],
      ...(maxRowsPerSheet ? { maxRowsPerSheet } : {}),
    });
  }

  /** Writes the task's file; resolves with its key, size, rows and sums. */
  async function write(task: ExportTaskRow) {
    const handler = handlerOf(task.kind);
    const locale = task.locale as ExportLocale;
    const currency = (await repo.currencyOf(db, task.merchantId)) as Currency;
    const prepared = handler.prepare(task.filters, { merchantId: task.merchantId, timeZone: task.timeZone });
    const { stream, writer } = writerFor(task, handler, prepared.columns(locale, currency));
    const fileKey = `exports/${task.merchantId}/${task.id}-${randomBytes(8).toString('hex')}.${task.format}`;
    const stored = storage.put(fileKey, stream, { contentType: CONTENT_TYPES[task.format as ExportFormat] });
    // Observed below; a failure of the storage must not go unhandled while rows are still being read.
    stored.catch(() => undefined);
    let rows = 0;
    let reported = Date.now();
    try {
      const chunks = prepared.chunks(db, task.maxRowId, {
        batchSize,
        locale,
        currency,
        format: task.format as ExportFormat,
        rowsPerSheet: maxRowsPerSheet ?? EXCEL_MAX_ROWS,
      });
      for await (const chunk of chunks) {
        const writing =
          'rows' in chunk ? writer.write(chunk.rows) : writer.writeFormatted(chunk.data, chunk.records);
        writing.catch(() => undefined);
        // A failing storage stops the export even while the writer waits for it to drain.
        await Promise.race([writing, stored]);
        rows += 'rows' in chunk ? chunk.rows.length : chunk.records;
        if (Date.now() - reported >= 500) {
          reported = Date.now();
          await repo.progress(db, task.id, rows, now());
        }
      }
      await writer.end();
      const { size } = await stored;
      return { fileKey, size, rows, sums: await prepared.sums(db, task.maxRowId, currency) };
    } catch (error) {
      writer.abort();
      await stored.catch(() => undefined);
      await storage.delete(fileKey).catch(() => undefined);
      throw error;
    }
  }

  /** The export.run job: claims the task (when a slot is free), writes its file, records the outcome. */
  async function run(id: number): Promise<void> {
    // A job without a task id of ours has nothing to do (retrying it would not help).
    if (!Number.isSafeInteger(id) || id <= 0) return;
    const task = await repo.findById(db, id);
    if (!task || task.status !== 'waiting') return;
    const claimed = await db.transaction(async (tx) => {
      await repo.lockMerchant(tx, task.merchantId);
      return repo.claim(tx, task, maxRunningPerMerchant, now());
    });
    // Every slot is taken: the export that ends first sends this one again.
    if (!claimed) return;
    let outcome: Awaited<ReturnType<typeof write>>;
    try {
      outcome = await write(claimed);
    } catch (error) {
      await db.transaction(async (tx) => {
        await repo.lockMerchant(tx, task.merchantId);
        await repo.fail(tx, task.id, reasonOf(error), now());
        await startNext(tx, task.merchantId);
      });
      return;
    }
    const at = now();
    const saved = await db.transaction(async (tx) => {
      await repo.lockMerchant(tx, task.merchantId);
      const row = await repo.succeed(tx, task.id, {
        fileKey: outcome.fileKey,
        size: outcome.size,
        rowsDone: outcome.rows,
        sums: outcome.sums,
        at,
        expiresAt: new Date(at.getTime() + EXPORT_KEEP_DAYS * DAY_MS),
      });
      await startNext(tx, task.merchantId);
      return row;
    });
    // Taken as interrupted meanwhile (failed by the sweep): its file is nobody's.
    if (!saved) await storage.delete(outcome.fileKey).catch(() => undefined);
  }

  /**
   * Housekeeping: deletes files past their 7 days, fails exports whose process died (no progress for a
   * while; they can be retried), and sends again waiting ones whose job was lost.
   */
  async function sweep(): Promise<{ expired: number; stalled: number }> {
    const at = now();
    let expired = 0;
    for (;;) {
      const due = await repo.expiredFiles(db, at, 200);
      for (const file of due) {
        if (file.fileKey) await storage.delete(file.fileKey);
        await repo.markExpired(db, file.id, at);
        expired += 1;
      }
      if (due.length < 200) break;
    }
    const stalled = await repo.stalled(db, new Date(at.getTime() - stallAfterMs));
    for (const task of stalled) {
      await db.transaction(async (tx) => {
        await repo.lockMerchant(tx, task.merchantId);
        await repo.fail(tx, task.id, 'The export was interrupted. Please retry.', at);
        await startNext(tx, task.merchantId);
      });
    }
    const waiting = await repo.longWaiting(db, new Date(at.getTime() - stallAfterMs));
    const merchants = new Set(waiting.map((w) => w.merchantId));
    for (const merchantId of merchants) {
      await db.transaction(async (tx) => {
        await repo.lockMerchant(tx, merchantId);
        await startNext(tx, merchantId);
      });
    }
    return { expired, stalled: stalled.length };
  }

  return { create, list, detail, download, retry, run, sweep };
}
