/**
 * A browser's user agent in words, for people: "Chrome 131 sur Windows", "Safari sur iPhone".
 * The one formatter of the app: the admin user page's sessions, users online and the customers' own
 * session list use it (docs/decisions/106). The raw string stays available as a `title` for who
 * needs it. Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari".
 */
export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent?.trim()) return 'Appareil inconnu';
  const browser = browserOf(userAgent);
  const system = systemOf(userAgent);
  if (browser && system) return `${browser} sur ${system}`;
  return browser ?? system ?? 'Appareil inconnu';
}

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\b(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/(?:\b|Headless)(?:Chrome|CriOS|Chromium)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

function browserOf(userAgent: string): string | undefined {
  for (const [pattern, name] of BROWSERS) {
    const found = pattern.exec(userAgent);
    if (found) return `${name} ${found[1]}`;
  }
  if (/\bnode\b|undici|node-fetch/i.test(userAgent)) return 'Script (Node.js)';
  if (/\bcurl\//i.test(userAgent)) return 'curl';
  return undefined;
}

function systemOf(userAgent: string): string | undefined {
  if (/\biPhone\b/.test(userAgent)) return 'iPhone';
  if (/\biPad\b/.test(userAgent)) return 'iPad';
  if (/\bAndroid\b/.test(userAgent)) return 'Android';
  if (/\bWindows\b/.test(userAgent)) return 'Windows';
  if (/\bCrOS\b/.test(userAgent)) return 'ChromeOS';
  if (/\bMac OS X\b|\bMacintosh\b/.test(userAgent)) return 'macOS';
  if (/\bLinux\b/.test(userAgent)) return 'Linux';
  return undefined;
}
