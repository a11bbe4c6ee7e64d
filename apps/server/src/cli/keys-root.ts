/**
 * `npm run keys:root -- --out FILE`: creates the offline root key that signs the key set agents
 * trust (docs/licensing.md, decision 912). The private key goes to FILE (0600), which the operator
 * keeps off the server (a USB key, a vault): never in DATA_DIR, never on a node. The public key
 * printed is what the vendor builds into its agent (`createBotClient({ trustRoot })`).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRootKeyFile } from '../modules/licensing/index.ts';
import { runCli } from './run-cli.ts';

await runCli(async () => {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (!values.out)
    throw new Error(
      'Indiquez où écrire la clé racine : npm run keys:root -- --out /chemin/hors/DATA_DIR/racine.jwk',
    );
  const file = path.resolve(values.out);
  const dataDir = path.resolve(process.env.DATA_DIR || 'data');
  if (file === dataDir || file.startsWith(`${dataDir}${path.sep}`))
    throw new Error(
      `Refusé : ${file} est dans DATA_DIR (${dataDir}). La clé racine ne doit jamais vivre avec les données du serveur (une sauvegarde ou un dossier volé la donnerait) : choisissez un fichier ailleurs, sur un support que vous gardez.`,
    );
  const { kid, publicJwk } = await createRootKeyFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST')
      throw new Error(`Refusé : ${file} existe déjà (une clé racine ne s’écrase jamais).`);
    throw error;
  });
  console.log(`Clé racine privée écrite dans ${file} (lisible par vous seul). Gardez-la hors du serveur.`);
  console.log(`Empreinte (kid) : ${kid}`);
  console.log('Clé publique à intégrer à votre agent (option trustRoot de createBotClient) :');
  console.log(JSON.stringify(publicJwk));
  console.log(`Ensuite : npm run keys:rotate -- --root-key ${file}`);
});
