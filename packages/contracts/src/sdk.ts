import { z } from 'zod';

/**
 * The bot SDK's tarball as the platform serves it (docs/decisions/922-sdk-package.md): a bot maker
 * installs it with `npm install ./bot-sdk-<version>.tgz` after checking its SHA-256.
 */
export const SDK_PATH = '/sdk';

/** The tarball's file name for a version, the last segment of its address. */
export const sdkTarballName = (version: string) => `bot-sdk-${version}.tgz`;

export const sdkPackageAnswer = z
  .object({
    version: z.string().describe('La version du SDK (semver), celle de son CHANGELOG.md'),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe('SHA-256 du fichier, en hexadécimal'),
    size: z.number().int().positive().describe('Taille du fichier en octets'),
    url: z.string().describe('Adresse du fichier sous la base de l’API (`/sdk/bot-sdk-<version>.tgz`)'),
  })
  .describe('Le SDK des bots (tarball npm)');
export type SdkPackage = z.infer<typeof sdkPackageAnswer>;
