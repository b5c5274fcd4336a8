import { describe, expect, it } from 'vitest';
import { normalizeTimeZone } from './time-zone.ts';
import { describeUserAgent } from './user-agent.ts';

describe('normalizeTimeZone', () => {
  it.each([
    ['+7', '+07:00'],
    ['UTC+8', '+08:00'],
    ['-0330', '-03:30'],
    ['GMT-05:00', '-05:00'],
    ['Asia/Ho_Chi_Minh', 'Asia/Ho_Chi_Minh'],
    ['asia/shanghai', 'Asia/Shanghai'],
    ['UTC', 'UTC'],
  ])('%s -> %s', (raw, expected) => expect(normalizeTimeZone(raw)).toBe(expected));

  it.each(['', 'Mars/Olympus', '+15:00', '+07:75', 'yesterday'])('refuses %j', (raw) =>
    expect(normalizeTimeZone(raw)).toBeNull(),
  );
});

describe('describeUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Edge 126',
      'Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Safari 17',
      'macOS',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox 127', 'Linux'],
    [
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
      'Chrome 126',
      'Android',
    ],
  ])('%s', (agent, browser, platform) => expect(describeUserAgent(agent)).toEqual({ browser, platform }));

  it('answers nulls for nothing recognisable', () => {
    expect(describeUserAgent(null)).toEqual({ browser: null, platform: null });
    expect(describeUserAgent('lightMyRequest')).toEqual({ browser: null, platform: null });
  });
});
