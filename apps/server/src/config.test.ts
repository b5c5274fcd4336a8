import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

// A key and a directory of the test's own, so that loading writes no app.key into the repository.
const base = () => ({
  APP_KEY: `base64:${Buffer.alloc(32, 3).toString('base64')}`,
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'paydesk-config-')),
});

describe('the mode a process starts in (issue 33 item 9)', () => {
  it('is production without NODE_ENV: no private callbacks, no sandbox, no demo', () => {
    const config = loadConfig(base());
    expect(config).toMatchObject({
      env: 'production',
      isProduction: true,
      isDemo: false,
      notifyAllowPrivate: false,
      sandboxEnabled: false,
    });
  });

  it('turns on private callbacks and the sandbox for the demo (npm start) and for development', () => {
    for (const env of [
      { PAYDESK_DEMO: 'true' },
      { NODE_ENV: 'production', PAYDESK_DEMO: 'true' },
      { NODE_ENV: 'development' },
      { NODE_ENV: 'test' },
    ]) {
      expect(loadConfig({ ...base(), ...env }), JSON.stringify(env)).toMatchObject({
        notifyAllowPrivate: true,
        sandboxEnabled: true,
      });
    }
    expect(loadConfig({ ...base(), PAYDESK_DEMO: 'true' })).toMatchObject({
      env: 'production',
      isDemo: true,
    });
  });

  it('keeps NOTIFY_ALLOW_PRIVATE when it is set', () => {
    expect(loadConfig({ ...base(), NOTIFY_ALLOW_PRIVATE: 'true' }).notifyAllowPrivate).toBe(true);
    const demo = { ...base(), PAYDESK_DEMO: 'true', NOTIFY_ALLOW_PRIVATE: 'false' };
    expect(loadConfig(demo).notifyAllowPrivate).toBe(false);
  });
});

describe('TRUST_PROXY (issue 33 item 4)', () => {
  const trustProxyOf = (value: string | undefined) =>
    loadConfig({ ...base(), TRUST_PROXY: value }).trustProxy;

  it('is off when unset, empty, false or 0', () => {
    for (const value of [undefined, '', 'false', '0']) expect(trustProxyOf(value), value).toBe(false);
  });

  it('takes a number of proxy hops', () => {
    expect(trustProxyOf('1')).toBe(1);
    expect(trustProxyOf(' 2 ')).toBe(2);
  });

  it("takes proxy addresses and CIDR blocks, comma-separated, and proxy-addr's named ranges", () => {
    expect(trustProxyOf('10.0.0.0/8, 192.168.1.7 ,fd00::/8,::1')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      '::1',
    ]);
    expect(trustProxyOf('loopback,uniquelocal')).toEqual(['loopback', 'uniquelocal']);
  });

  it('refuses true at start, saying what to set instead and why', () => {
    expect(() => trustProxyOf('true')).toThrow(/^Invalid configuration:\n {2}TRUST_PROXY: /);
    expect(() => trustProxyOf('true')).toThrow(/every hop/);
    expect(() => trustProxyOf('true')).toThrow(/X-Forwarded-For/);
    expect(() => trustProxyOf('true')).toThrow(/TRUST_PROXY=1/);
  });

  it('refuses a wrong entry by name instead of failing later', () => {
    for (const [value, named] of [
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['10.0.0.0/8,proxy.example', 'proxy.example'],
      ['300.1.2.3', '300.1.2.3'],
      ['10.0.0.0/8,,10.1.0.0/16', 'empty'],
      ['-1', '-1'],
      ['1.5', '1.5'],
      ['fd00::/129', 'fd00::/129'],
      ['0.0.0.0/0', 'every hop'],
      ['0.0.0.0/1,128.0.0.0/1', 'wider than a /8'],
      ['::ffff:0.0.0.0/96', 'wider than a /8'],
      ['2000::/3', 'wider than a /8'],
      ['yes', 'yes'],
    ]) {
      expect(() => trustProxyOf(value), value).toThrow(/^Invalid configuration:\n {2}TRUST_PROXY: /);
      expect(() => trustProxyOf(value), value).toThrow(named);
    }
  });
});
