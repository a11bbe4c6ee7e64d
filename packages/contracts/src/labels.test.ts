import { describe, expect, it } from 'vitest';
import { AUDIT_FIELD_LABELS, auditActionLabel, auditFieldLabel } from './audit.ts';
import { PERMISSIONS, permissionLabel } from './permissions.ts';

describe('permissionLabel', () => {
  it('gives the French description of every permission, never its raw name', () => {
    expect(permissionLabel('can_manageUsers')).toBe('Gérer les utilisateurs');
    expect(permissionLabel('can_useGathering')).toBe('Utiliser le bot de récolte');
    for (const name of PERMISSIONS) {
      expect(permissionLabel(name)).not.toMatch(/can_/);
      expect(permissionLabel(name).length).toBeGreaterThan(5);
    }
    expect(new Set(PERMISSIONS.map(permissionLabel)).size).toBe(PERMISSIONS.length);
  });

  it('shows a name it does not know as written', () => {
    expect(permissionLabel('can_somethingNew')).toBe('can_somethingNew');
  });
});

describe('audit labels', () => {
  it('names the fields the server writes in French, settings included', () => {
    expect(auditFieldLabel('permissions')).toBe('Permissions');
    expect(auditFieldLabel('expiresAt')).toBe('Fin');
    expect(auditFieldLabel('isSnow')).toBe('Affichage de la neige');
    expect(auditFieldLabel('priceCents')).toBe('Prix');
    for (const label of Object.values(AUDIT_FIELD_LABELS)) expect(label).not.toMatch(/[a-z][A-Z]|_/);
  });

  it('turns an unknown field into words rather than an identifier', () => {
    expect(auditFieldLabel('someNewField')).toBe('Some new field');
    expect(auditFieldLabel('last_seen_ip')).toBe('Last seen ip');
  });

  it('labels known actions and keeps unknown ones as written', () => {
    expect(auditActionLabel('role.create')).toBe('Rôle créé');
    expect(auditActionLabel('release.publish')).toBe('Version du bot publiée');
    expect(auditActionLabel('gizmo.launch')).toBe('gizmo.launch');
  });
});
