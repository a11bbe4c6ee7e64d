import { describe, expect, it } from 'vitest';
import { revokeConfirmText } from './signing-keys-text.ts';

const ROTATE = 'npm run keys:rotate -- --root-key /chemin/vers/racine.jwk --purpose lease';

describe('the revoke dialog says what holds for the key concerned (issue 43)', () => {
  it('for the standby key: nothing takes over, a new one needs the root key, and it cannot be undone', () => {
    const text = revokeConfirmText({ purpose: 'lease', state: 'standby' }, ROTATE);
    expect(text).not.toContain('prend le relais ;');
    expect(text).not.toContain('signé par la clé de réserve');
    expect(text).toContain('C’est la clé de réserve');
    expect(text).toContain(ROTATE);
    expect(text).toContain('ne peut pas être annulée');
  });

  it('for the key in service: its standby takes over, and a new standby needs the root key', () => {
    const text = revokeConfirmText({ purpose: 'lease', state: 'current' }, ROTATE);
    expect(text).toContain('la clé de réserve prend le relais');
    expect(text).toContain('Il n’y aura plus de clé de réserve');
    expect(text).toContain(ROTATE);
    expect(text).toContain('ne peut pas être annulée');
    expect(revokeConfirmText({ purpose: 'release', state: 'current' }, ROTATE)).toContain(
      'manifeste signé par la clé de réserve',
    );
  });

  it('for an older key: only what it still signed is refused', () => {
    const text = revokeConfirmText({ purpose: 'lease', state: 'previous' }, ROTATE);
    expect(text).toContain('ancienne clé');
    expect(text).not.toContain('prend le relais');
    expect(text).toContain('ne peut pas être annulée');
  });
});
