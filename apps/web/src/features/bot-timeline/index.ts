/** One timeline per bot: shown on the bot page and the admin user page. */
export { botTimelineQuery, myBotTimelineQuery, timelineKeys } from './api/bot-timeline.ts';
export { BotTimelineView } from './components/bot-timeline-view.tsx';
