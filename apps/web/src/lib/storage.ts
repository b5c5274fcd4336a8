// Client settings live in localStorage under the spec's keys; a blocked or full storage never breaks the app.

export function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or quota: the setting lasts for this page only.
  }
}

export function readJson<T>(key: string, fallback: T, storage: 'local' | 'session' = 'local'): T {
  try {
    const raw = (storage === 'local' ? localStorage : sessionStorage).getItem(key);
    return raw === null ? fallback : { ...fallback, ...(JSON.parse(raw) as T) };
  } catch {
    return fallback;
  }
}

export function writeJson(key: string, value: unknown, storage: 'local' | 'session' = 'local'): void {
  try {
    (storage === 'local' ? localStorage : sessionStorage).setItem(key, JSON.stringify(value));
  } catch {
    // As above.
  }
}
