// npm run generate:types -w @paydesk/node-client [-- --url http://localhost:8080/gateway/openapi.json]
//
// Writes src/openapi.ts, the gateway's types, with openapi-typescript from /gateway/openapi.json: from a
// running server (--url), or by default from the app built in-process (an empty in-memory database, the
// way the tests build it), so no server needs to run. Formatted with the repository's Prettier settings.
import { writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';

export const TYPES_FILE = new URL('../src/openapi.ts', import.meta.url);

const HEADER = `// Generated from /gateway/openapi.json by \`npm run generate:types -w @paydesk/node-client\`
// (openapi-typescript). Do not edit: change the server's route schemas, then generate again.
`;

/** The TypeScript of a gateway OpenAPI document, as the committed src/openapi.ts holds it. */
export async function generateTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0]);
  const source = HEADER + astToString(ast);
  const config = (await prettier.resolveConfig(TYPES_FILE)) ?? {};
  return prettier.format(source, { ...config, parser: 'typescript' });
}

/** /gateway/openapi.json of the app built in-process (apps/server's buildApp, a fresh in-memory database). */
export async function inProcessDocument(): Promise<object> {
  // A path in a variable: the package's type check does not walk into the server's sources.
  const helper = new URL('../../../apps/server/test/helpers/test-app.ts', import.meta.url).href;
  const { createTestApp } = (await import(helper)) as {
    createTestApp(): Promise<{
      app: { inject(url: string): Promise<{ statusCode: number; json(): object }> };
      close(): Promise<void>;
    }>;
  };
  const ctx = await createTestApp();
  try {
    const answer = await ctx.app.inject('/gateway/openapi.json');
    if (answer.statusCode !== 200) throw new Error(`/gateway/openapi.json answered ${answer.statusCode}`);
    return answer.json();
  } finally {
    await ctx.close();
  }
}

async function main() {
  const at = process.argv.indexOf('--url');
  const url = at >= 0 ? process.argv[at + 1] : undefined;
  let document: object;
  if (url) {
    const answer = await fetch(url);
    if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
    document = (await answer.json()) as object;
  } else {
    document = await inProcessDocument();
  }
  writeFileSync(TYPES_FILE, await generateTypes(document));
  console.log(`Wrote ${TYPES_FILE.pathname} from ${url ?? 'the app built in-process'}.`);
}

if (import.meta.main) await main();
