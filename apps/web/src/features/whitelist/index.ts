/** The customer's whitelist as the bot page's first-run checklist uses it. */
export { addToWhitelist, myWhitelistQuery } from './api/whitelist.ts';
