import os from 'node:os';
import { loadConfig } from '../config.ts';
import { runOps } from './ops-commands.ts';
import { resolveTransport } from './transport.ts';

// `npm run ops -- <command> [options]`; see ops-commands.ts, or run it with --help.

if (Number(process.versions.node.split('.')[0]) !== 24) {
  console.error(`The ops command needs Node 24, this is ${process.versions.node}. Run it with npm run ops.`);
  process.exit(1);
}

const defaultOperator = process.env.PAYDESK_OPERATOR || safeUsername();

const code = await runOps(process.argv.slice(2), {
  io: { out: (text) => console.log(text), err: (text) => console.error(text) },
  connect: () => resolveTransport(loadConfig({ LOG_LEVEL: 'silent', ...process.env })),
  defaultOperator,
});
process.exit(code);

function safeUsername(): string {
  try {
    return os.userInfo().username || 'local';
  } catch {
    return 'local';
  }
}
