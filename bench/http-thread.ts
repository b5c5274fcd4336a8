import { performance } from 'node:perf_hooks';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { Client } from 'undici';

// The benchmarks' HTTP client on a thread of its own, as a caller is a process of its own: it times each
// request itself, from its sending to the last byte of the answer read, while the server's thread may go
// on with what follows an answer (its log line, its hooks), as it does for any caller. A client on the
// server's own thread waits for that work, and its own parsing of the answer delays the server.

export type ThreadAnswer = { status: number; body: string; elapsedMs: number };
type Request = { id: number; path: string };
type Reply = { id: number; answer?: ThreadAnswer; error?: string };

if (parentPort && workerData?.httpThread) {
  const port = parentPort;
  const { base, headers } = workerData.httpThread as { base: string; headers: Record<string, string> };
  const client = new Client(base, { pipelining: 1 });
  port.on('message', ({ id, path }: Request) => {
    const started = performance.now();
    client
      .request({ path, method: 'GET', headers })
      .then(async (answer) => {
        const body = await answer.body.text();
        const reply: Reply = {
          id,
          answer: { status: answer.statusCode, body, elapsedMs: performance.now() - started },
        };
        port.postMessage(reply);
      })
      .catch((error: unknown) => port.postMessage({ id, error: String(error) } satisfies Reply));
  });
}

/** Starts the client thread for `base` with these headers on every request. */
export function startHttpThread(base: URL, headers: Record<string, string>) {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { httpThread: { base: base.toString(), headers } },
  });
  const pending = new Map<number, { resolve: (a: ThreadAnswer) => void; reject: (e: Error) => void }>();
  let next = 0;
  worker.on('message', ({ id, answer, error }: Reply) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (answer) waiting?.resolve(answer);
    else waiting?.reject(new Error(error));
  });
  worker.on('error', (error) => pending.forEach((waiting) => waiting.reject(error)));
  return {
    /** GET path; the answer carries the time the client thread measured. */
    get(path: string): Promise<ThreadAnswer> {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, path } satisfies Request);
      });
    },
    close: () => worker.terminate(),
  };
}
