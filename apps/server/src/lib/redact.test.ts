import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact.ts';

describe('redactUrl', () => {
  it('hides secret-looking query values and keeps the rest', () => {
    expect(
      redactUrl('/api/user/password?current_password=old-one&password=n3w&password_confirmation=n3w&page=2'),
    ).toBe(
      '/api/user/password?current_password=%5Bredacted%5D&password=%5Bredacted%5D&password_confirmation=%5Bredacted%5D&page=2',
    );
    expect(redactUrl('/api/merchant/fund-flows?type=recharge&page=3')).toBe(
      '/api/merchant/fund-flows?type=recharge&page=3',
    );
    expect(redactUrl('/healthz')).toBe('/healthz');
  });
});
