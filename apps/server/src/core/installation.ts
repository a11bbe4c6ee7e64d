import { isIP } from 'node:net';
import { StartupError } from './startup-errors.ts';

/**
 * A loopback installation is one nobody else can reach: the trial `npm start`, the demo and the
 * tests. Only there may the server pick safe-for-trial defaults by itself (the sandbox payment
 * provider, a development trust root, a generated master key); a public installation must be told
 * (docs/operations.md, "A public installation").
 */
export function isLoopbackInstallation(input: {
  publicUrl: string;
  host: string;
  production: boolean;
}): boolean {
  if (input.production) return false;
  let publicHost: string;
  try {
    publicHost = new URL(input.publicUrl).hostname;
  } catch {
    return false;
  }
  return isLoopbackHost(publicHost) && isLoopbackHost(input.host);
}

/** `localhost`, 127.0.0.0/8 and ::1 (with or without brackets). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
  return false;
}

/**
 * Refuses to start an installation that lacks what it must be told, naming every missing thing in
 * one message (as a bad environment variable list does), so an operator fixes them all at once.
 * `problems` are French sentences, each naming the setting or the command that fixes it.
 */
export function assertInstallationReady(problems: readonly string[], isLoopback: boolean): void {
  if (problems.length === 0) return;
  const heading = isLoopback ? 'Configuration incomplète' : 'Installation publique incomplète';
  throw new StartupError(
    `${heading} : ce serveur refuse de démarrer tant que ces points ne sont pas réglés.\n${problems
      .map((problem) => `  - ${problem}`)
      .join('\n')}`,
  );
}
