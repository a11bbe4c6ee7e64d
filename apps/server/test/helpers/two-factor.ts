import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { type apiClient, TEST_PASSWORD } from '../harness.ts';

/**
 * What the user's authenticator app shows, `stepsAhead` 30-second steps from now. The server takes
 * each step once and accepts the step before and after the current one (clock drift): a test uses
 * the current step, then the next one, so a step boundary crossed mid-test changes nothing.
 */
export function authenticatorCode(secret: string, stepsAhead = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** Turns two-factor on for the session's account, as the owner does (password and first code). */
export async function enrolWith(
  call: ReturnType<typeof apiClient>,
  token: string,
  password = TEST_PASSWORD,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await call<{ data: { secret: string } }>('POST', '/me/two-factor/setup', undefined, token);
  expect(setup.status).toBe(200);
  const secret = setup.body.data.secret;
  const enabled = await call<{ data: { recoveryCodes: string[] } }>(
    'POST',
    '/me/two-factor/enable',
    { password, code: authenticatorCode(secret) },
    token,
  );
  expect(enabled.status).toBe(200);
  return { secret, recoveryCodes: enabled.body.data.recoveryCodes };
}
