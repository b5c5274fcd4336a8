// npm run dev: the server with reload, and Vite's dev server proxying /api to it.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', '-s', '-w', '@paydesk/server', 'dev'], { stdio: 'inherit' }),
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
