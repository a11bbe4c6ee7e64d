/** The anchor of the two-factor card on /account (the admin area sends staff there to enrol). */
export const TWO_FACTOR_SECTION_ID = 'double-authentification';
