// The browser suite: Debian's Chromium (never a downloaded browser), the built console, the real server.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  const isRoot = process.getuid?.() === 0;
  const canSudo = !isRoot && spawnSync('sudo', ['-n', 'true']).status === 0;
  if (isRoot || canSudo) {
    console.log("Installing Debian's chromium package for the browser tests...");
    const prefix = isRoot ? [] : ['sudo', '-n'];
    const apt = (...args) =>
      spawnSync(
        prefix[0] ?? 'apt-get',
        [...prefix.slice(1), ...(prefix.length ? ['apt-get'] : []), ...args],
        {
          stdio: 'inherit',
          env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        },
      );
    if (apt('install', '-y', 'chromium').status !== 0) {
      apt('update');
      apt('install', '-y', 'chromium');
    }
  }
  if (!existsSync(CHROMIUM)) {
    console.error(
      `Chromium was not found at ${CHROMIUM}. Install it with "sudo apt-get install chromium" ` +
        '(or set CHROMIUM_PATH), then run npm test again.',
    );
    process.exit(1);
  }
}

// Chinese text in screenshots needs a CJK font; best effort, the tests do not depend on it.
const hasCjkFont = spawnSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).stdout?.trim();
if (!hasCjkFont && process.getuid?.() === 0) {
  spawnSync('apt-get', ['install', '-y', '-q', 'fonts-wqy-microhei'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

const build = spawnSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const args = ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)];
const result = spawnSync('npx', args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
