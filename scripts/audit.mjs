// CI: `npm audit --omit=dev --audit-level=high`, read rather than trusted blindly. A high or critical
// advisory in a production dependency fails the run and names the package. When the registry's audit
// service does not answer (a registry mirror that serves only downloads answers 405), the run says so
// loudly and goes on: that is no finding, and a CI that cannot land anything protects nobody.
// AUDIT_REQUIRED=true makes an unanswered audit fail too.
// `node scripts/audit.mjs --report <file>` judges a saved `npm audit --json` report instead (tests).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const BLOCKING = ['high', 'critical'];

function auditReport() {
  const at = process.argv.indexOf('--report');
  if (at > 0) return readFileSync(process.argv[at + 1], 'utf8');
  const result = spawnSync('npm', ['audit', '--omit=dev', '--audit-level=high', '--json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return result.stdout;
}

let report;
try {
  report = JSON.parse(auditReport());
} catch {
  report = { message: 'npm audit printed no JSON report' };
}

const counts = report.metadata?.vulnerabilities;
if (!counts) {
  const why = report.message ?? report.error?.summary ?? 'no report';
  console.log(`npm audit (production dependencies): NOT CHECKED, the audit service did not answer (${why}).`);
  process.exit(process.env.AUDIT_REQUIRED === 'true' ? 1 : 0);
}

const blocking = Object.values(report.vulnerabilities ?? {}).filter((v) => BLOCKING.includes(v.severity));
const summary = Object.entries(counts)
  .filter(([severity, n]) => severity !== 'total' && n > 0)
  .map(([severity, n]) => `${n} ${severity}`)
  .join(', ');
if (blocking.length === 0) {
  console.log(
    `npm audit (production dependencies): no high or critical advisory (${summary || 'none at all'}).`,
  );
  process.exit(0);
}
console.log('npm audit (production dependencies): high or critical advisories:');
for (const v of blocking) {
  const titles = v.via.filter((via) => typeof via === 'object').map((via) => `${via.title} (${via.url})`);
  const through = v.via.filter((via) => typeof via === 'string');
  const fix = v.fixAvailable ? 'a fix is available (npm audit fix)' : 'no fix available yet';
  console.log(
    `  ${v.name} ${v.range}: ${v.severity}; ${[...titles, ...through.map((n) => `via ${n}`)].join('; ')}; ${fix}`,
  );
}
process.exit(1);
