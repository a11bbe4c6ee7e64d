/** "Journal du bot": the bot's own log, on the customer's bot page and the admin user page. */
export { BotLogCard } from './components/bot-log-card.tsx';
