/** The account cards the bot page shows too. */
export { BotKeyCard } from './components/bot-key-card.tsx';
export { HwidCard } from './components/hwid-card.tsx';
