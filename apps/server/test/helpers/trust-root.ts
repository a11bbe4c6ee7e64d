import { DEV_TRUST_ROOT_PATH } from '@bot/contracts';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { RootKey } from '../../src/modules/licensing/index.ts';

/**
 * The root an agent pins in the tests (decision 912). A loopback test server signs its key set
 * with the development root in its DATA_DIR and publishes the public half at a loopback-only path;
 * a real agent has its vendor's root built in and never fetches it.
 */
export async function fetchDevelopmentRoot(url: string): Promise<JWK> {
  const response = await fetch(`${url}${DEV_TRUST_ROOT_PATH}`);
  if (!response.ok)
    throw new Error(`${url} ne publie pas de racine de développement (HTTP ${response.status})`);
  return (await response.json()) as JWK;
}

let testRoot: Promise<RootKey> | undefined;

/** One offline root for the tests that start a public installation (an operator's keys:root). */
export function testRootKey(): Promise<RootKey> {
  testRoot ??= (async () => {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    return { kid, publicJwk: { ...jwk, kid, alg: 'EdDSA', use: 'sig' }, privateKey, isDevelopment: false };
  })();
  return testRoot;
}
