/** The account cards the bot page shows too. */

export { botKeyQuery } from './api/account.ts';
export { BotKeyCard } from './components/bot-key-card.tsx';
export { HwidCard } from './components/hwid-card.tsx';
