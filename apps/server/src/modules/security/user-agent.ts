/** "Chrome 126" and "Windows" from a user agent string; null for what we do not recognise. */
export function describeUserAgent(userAgent: string | null): {
  browser: string | null;
  platform: string | null;
} {
  if (!userAgent) return { browser: null, platform: null };
  return { browser: browserOf(userAgent), platform: platformOf(userAgent) };
}

// Order matters: Edge and Opera also claim Chrome, and Chrome also claims Safari.
const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/SamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/MicroMessenger\/(\d+)/, 'WeChat'],
  [/(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
  [/curl\/(\d+)/, 'curl'],
];

function browserOf(userAgent: string): string | null {
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) return `${name} ${match[1]}`;
  }
  return null;
}

const PLATFORMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

function platformOf(userAgent: string): string | null {
  return PLATFORMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
}
