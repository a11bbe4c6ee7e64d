import { isIP } from 'node:net';
import { z } from 'zod';

/** TRUST_PROXY: `false`/`0`, a hop count, or a comma-separated list of addresses or CIDRs. */
export function parseTrustProxy(value: string, context: z.RefinementCtx): false | number | string[] {
  const trimmed = value.trim();
  if (trimmed === 'false' || trimmed === '0') return false;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (trimmed === 'true') {
    context.addIssue({
      code: 'custom',
      message:
        'trop permissif (une adresse falsifiée contournerait les limites) : indiquez le nombre de proxys devant le serveur (1 derrière un nginx) ou leurs adresses.',
    });
    return z.NEVER;
  }
  return parseAddressList(trimmed, context);
}

/** A comma-separated list of addresses or CIDRs (TRUST_PROXY, SOCKET_HANDSHAKE_ALLOWLIST). */
export function parseAddressList(value: string, context: z.RefinementCtx): string[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !isAddressOrCidr(entry));
  if (invalid.length > 0) {
    context.addIssue({ code: 'custom', message: `adresse ou CIDR invalide : ${invalid.join(', ')}` });
    return z.NEVER;
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address || isIP(address) === 0) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
}
