// npm run dev: the server with reload, and Vite's dev server proxying /api to it.
import { spawn } from 'node:child_process';

// Development mode (the server's default is production): the demo merchants, the sandbox, local callbacks.
const children = [
  spawn('npm', ['run', '-s', '-w', '@paydesk/server', 'dev'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'development' },
  }),
  spawn('npm', ['run', '-s', '-w', '@paydesk/web', 'dev'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
