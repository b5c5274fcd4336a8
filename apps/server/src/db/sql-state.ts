/** The error's SQLSTATE, looking through drizzle's wrapping ("Failed query: ..."); node-postgres or PGlite. */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
