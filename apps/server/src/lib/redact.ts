const SECRET_PARAM = /password|code|secret|token|key/i;

/**
 * A URL fit for the logs: values of query parameters that look like secrets are replaced. The spec's
 * PUT /api/user/password sends the passwords in the query string, and request logs record URLs.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  let changed = false;
  for (const name of new Set(params.keys())) {
    if (SECRET_PARAM.test(name)) {
      params.set(name, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, queryAt)}?${params.toString()}` : url;
}
