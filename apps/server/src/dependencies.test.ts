import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// What the project installs (issue 33, item 12): no package with a known vulnerable parser, and CI fails
// on a high or critical advisory in a production dependency (scripts/audit.mjs, run by .ci/run).

const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('the installed packages', () => {
  it('hold neither s3rver nor the vulnerable busboy 0.x, dicer or fast-xml-parser before 5 it pulled in', () => {
    const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    const found = Object.entries(lock.packages)
      .map(([where, { version }]) => ({
        name: where.replace(/^.*node_modules\//, ''),
        version: version ?? '',
      }))
      .filter(
        ({ name, version }) =>
          name === 's3rver' ||
          name === 'dicer' ||
          (name === 'busboy' && version.startsWith('0.')) ||
          (name === 'fast-xml-parser' && Number(version.split('.')[0]) < 5),
      );
    expect(found).toEqual([]);
  });
});

describe('the CI audit gate', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'paydesk-audit-'));
  const judge = (name: string, report: unknown, env: NodeJS.ProcessEnv = {}) => {
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(report));
    const result = spawnSync(process.execPath, ['scripts/audit.mjs', '--report', file], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, AUDIT_REQUIRED: '', ...env },
    });
    return { status: result.status, output: result.stdout + result.stderr };
  };
  const counts = (found: Partial<Record<'moderate' | 'high' | 'critical' | 'total', number>>) => ({
    vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0, total: 0, ...found },
  });

  it('fails on a high advisory in a production dependency and names it', () => {
    const { status, output } = judge('high', {
      auditReportVersion: 2,
      vulnerabilities: {
        dicer: {
          name: 'dicer',
          severity: 'high',
          range: '*',
          fixAvailable: false,
          via: [
            {
              title: 'Crash in HeaderParser in dicer',
              url: 'https://github.com/advisories/GHSA-wm7h-9275-46v2',
            },
          ],
        },
        busboy: { name: 'busboy', severity: 'high', range: '<=0.3.1', fixAvailable: true, via: ['dicer'] },
      },
      metadata: counts({ high: 2, total: 2 }),
    });
    expect(status).toBe(1);
    expect(output).toContain('dicer *: high; Crash in HeaderParser in dicer');
    expect(output).toContain('busboy <=0.3.1: high; via dicer; a fix is available');
  });

  it('passes with only moderate advisories, saying how many', () => {
    const { status, output } = judge('moderate', {
      auditReportVersion: 2,
      vulnerabilities: { esbuild: { name: 'esbuild', severity: 'moderate', range: '<=0.24.2', via: [] } },
      metadata: counts({ moderate: 1, total: 1 }),
    });
    expect([status, output.trim()]).toEqual([
      0,
      'npm audit (production dependencies): no high or critical advisory (1 moderate).',
    ]);
  });

  it('says loudly that nothing was checked when the audit service does not answer', () => {
    const unanswered = {
      message: '405 Method Not Allowed - POST https://registry.example/-/npm/v1/security/advisories/bulk',
      error: { summary: '', detail: '' },
    };
    const { status, output } = judge('unanswered', unanswered);
    expect(status).toBe(0);
    expect(output).toMatch(/NOT CHECKED, the audit service did not answer \(405 Method Not Allowed/);
    expect(judge('unanswered', unanswered, { AUDIT_REQUIRED: 'true' }).status).toBe(1);
  });

  it('runs in CI before the tests', () => {
    const commands = readFileSync(path.join(repoRoot, '.ci/run'), 'utf8').split('\n');
    expect(commands.indexOf('node scripts/audit.mjs')).toBeGreaterThan(0);
    expect(commands.indexOf('node scripts/audit.mjs')).toBeLessThan(commands.indexOf('npm test'));
  });
});
