import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// DATA_DIR/server.json tells the command line that a process is using this data directory, and where the
// server listens. PGlite is one process: nothing may open DATA_DIR/pglite while another process has it.

export const SERVER_FILE = 'server.json';

export type ServerInfo = {
  pid: number;
  /** Where the server answers; null while it is starting, and for a command line working in-process. */
  url: string | null;
  role: 'server' | 'ops';
  database: 'pglite' | 'postgres';
  started_at: string;
};

const fileOf = (dataDir: string) => path.join(dataDir, SERVER_FILE);

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function read(dataDir: string): ServerInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(fileOf(dataDir), 'utf8')) as ServerInfo;
    return Number.isInteger(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

/** The process holding DATA_DIR, if it is still running (a file left by a killed process is ignored). */
export function readLiveServer(dataDir: string): ServerInfo | undefined {
  const info = read(dataDir);
  return info && info.pid !== process.pid && isAlive(info.pid) ? info : undefined;
}

export class DataDirBusyError extends Error {}

/**
 * Marks DATA_DIR as used by this process. Refused when another live process uses it and either side is on
 * the embedded database (two PGlite instances on one directory would corrupt it).
 */
export function claimDataDir(dataDir: string, claim: Pick<ServerInfo, 'role' | 'database'>): void {
  mkdirSync(dataDir, { recursive: true });
  const holder = readLiveServer(dataDir);
  if (holder && (holder.database === 'pglite' || claim.database === 'pglite')) {
    const what =
      holder.role === 'server'
        ? `A Paydesk server (pid ${holder.pid})`
        : `An ops command (pid ${holder.pid})`;
    throw new DataDirBusyError(`${what} is using ${dataDir}; stop it first, or use another DATA_DIR.`);
  }
  write(dataDir, { pid: process.pid, url: null, ...claim, started_at: new Date().toISOString() });
}

export function publishServerUrl(dataDir: string, url: string): void {
  const info = read(dataDir);
  if (info?.pid !== process.pid) return;
  write(dataDir, { ...info, url });
}

/** Removes the mark, if it is still this process's. */
export function releaseDataDir(dataDir: string): void {
  if (read(dataDir)?.pid !== process.pid) return;
  try {
    unlinkSync(fileOf(dataDir));
  } catch {
    /* already gone */
  }
}

function write(dataDir: string, info: ServerInfo) {
  // Write then rename, so a reader never sees half a file.
  const temp = `${fileOf(dataDir)}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
  renameSync(temp, fileOf(dataDir));
}
