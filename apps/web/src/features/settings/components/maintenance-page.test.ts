import { isStaff as isStaffMember } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { isOpenDuringMaintenance } from './maintenance-page.tsx';

describe('maintenance gate', () => {
  it('lets administrators and can_manage* holders through, not customers', () => {
    expect(isStaffMember({ isAdministrator: true, permissions: [] })).toBe(true);
    expect(isStaffMember({ isAdministrator: false, permissions: ['can_manageMap'] })).toBe(true);
    expect(
      isStaffMember({ isAdministrator: false, permissions: ['can_useGathering', 'can_useTreasure'] }),
    ).toBe(false);
    expect(isOpenDuringMaintenance('/login')).toBe(true);
    expect(isOpenDuringMaintenance('/account')).toBe(false);
  });
});
