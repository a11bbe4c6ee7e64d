/** The header's bell and the bot's alert card. */
export { AlertsCard } from './components/alerts-card.tsx';
export { NotificationBell } from './components/notification-bell.tsx';
