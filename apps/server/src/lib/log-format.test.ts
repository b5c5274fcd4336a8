import { describe, expect, it } from 'vitest';
import { logTransport } from './log-format.ts';

describe('logTransport', () => {
  it('writes readable lines to a terminal', () => {
    expect(logTransport(true)).toMatchObject({ target: 'pino-pretty' });
  });

  it('writes JSON lines anywhere else (a pipe, a file, CI)', () => {
    expect(logTransport(false)).toBeUndefined();
    expect(logTransport(undefined)).toBeUndefined();
  });

  it('names a transport that is installed', async () => {
    const pretty = await import(logTransport(true)!.target);
    expect(typeof pretty.default).toBe('function');
  });
});
