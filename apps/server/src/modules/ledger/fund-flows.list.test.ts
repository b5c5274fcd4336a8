import { describe, expect, it } from 'vitest';
import { neutralizeFormula } from '../exports/index.ts';
import { FUND_FLOW_TYPE_LABELS } from './fund-flows.list.ts';

describe('the fund flow export', () => {
  // Its type column is `plain`: PostgreSQL writes the labels into the file without neutralising or escaping.
  it('has type labels that need no neutralising and no XML escaping, in every language', () => {
    const labels = Object.values(FUND_FLOW_TYPE_LABELS).flatMap((titles) => Object.values(titles));
    expect(labels).toHaveLength(30);
    for (const label of labels) {
      expect(neutralizeFormula(label)).toBe(label);
      // eslint-disable-next-line no-control-regex -- control characters are what is looked for
      expect(label).not.toMatch(/[&<>"\\\u0000-\u001f]/);
    }
  });
});
