import type { SigningKey } from '@bot/contracts';

const FINAL = 'La révocation est définitive : elle ne peut pas être annulée.';

/**
 * What revoking this key does, for its purpose and state (decision 912): the key in service hands
 * over to its standby; the standby itself hands over to nothing, and a new standby takes the root
 * key, kept off the server (`npm run keys:rotate -- --root-key …`); an older key only stops what it
 * signed still being believed.
 */
export function revokeConfirmText(key: Pick<SigningKey, 'purpose' | 'state'>, rotateCommand: string): string {
  const signed = key.purpose === 'release' ? 'Les manifestes de versions' : 'Les baux';
  const newStandby = `Une nouvelle clé de réserve demande la clé racine, gardée hors du serveur : sur la machine où elle se trouve, lancez ${rotateCommand}.`;
  if (key.state === 'standby')
    return `C’est la clé de réserve : elle ne signe rien pour l’instant, les bots ne voient aucun changement. Mais si la clé en service fuit ensuite, plus aucune clé ne pourra prendre le relais. ${newStandby} ${FINAL}`;
  if (key.state === 'previous')
    return `${signed} encore signés par cette ancienne clé sont refusés tout de suite ; ceux des bots connectés sont remplacés par la clé en service. À faire si la clé a fuité. ${FINAL}`;
  const takeover =
    key.purpose === 'release'
      ? 'Les manifestes signés par cette clé sont refusés tout de suite : les bots demandent la mise à jour de nouveau et reçoivent un manifeste signé par la clé de réserve, qui la remplace.'
      : 'Les baux signés par cette clé sont refusés tout de suite : les bots connectés en reçoivent un nouveau, car la clé de réserve prend le relais ; ceux hors ligne s’arrêtent en vérifiant le leur.';
  return `${takeover} Il n’y aura plus de clé de réserve : ${newStandby.charAt(0).toLowerCase()}${newStandby.slice(1)} À faire si la clé a fuité. ${FINAL}`;
}
