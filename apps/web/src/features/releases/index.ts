/** The download card of the agent's latest build (the started page and the bot page). */

export { downloadHref, useLatestRelease } from './api/latest-release.ts';
export { default as DownloadCard } from './components/download-card.tsx';
