import type { TransportSingleOptions } from 'pino';

/**
 * How the server's log lines are written: readable lines (pino-pretty) for a person at a terminal, one
 * JSON object a line otherwise (CI, pipes, log collectors read those).
 */
export function logTransport(isTTY: boolean | undefined): TransportSingleOptions | undefined {
  if (!isTTY) return undefined;
  return {
    target: 'pino-pretty',
    options: { colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
  };
}
