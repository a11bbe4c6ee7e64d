import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from './errors.ts';

/**
 * AES-256-GCM for secrets the server must show again (bot access keys, TOTP secrets, signing keys):
 * the database holds only the sealed form; the key is derived from the master key, which lives
 * outside the data (core/master-key.ts, docs/security.md "Storage").
 */
export function seal(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

export function unseal(sealed: string, key: Buffer): string {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  // Not three parts: the stored value is damaged, a defect logged with its stack (decision 012).
  if (!iv || !tag || !body) throw new AppError('INTERNAL');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/** The same secret sealed under another key (an upgrade or a master key rotation). */
export function reseal(sealed: string, from: Buffer, to: Buffer): string {
  return seal(unseal(sealed, from), to);
}
