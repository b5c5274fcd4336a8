import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedRequest = { path: string; headers: IncomingHttpHeaders; body: string };
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * The merchant's notify endpoint: a local node:http server at `url` (ending in `pathname`) that keeps every
 * request it gets in `received` and answers the status `answer` gives (200 unless told): "ok" on a 2xx,
 * "try again" otherwise.
 */
export async function startReceiver(pathname = '/hooks', answer: () => number = () => 200) {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const status = answer();
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status >= 200 && status < 300 ? 'ok' : 'try again');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${pathname}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
