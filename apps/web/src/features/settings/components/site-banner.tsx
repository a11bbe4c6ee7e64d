import type { PublicSettings } from '@bot/contracts';
import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import classes from './site-banner.module.css';

/** The banner's height, read by the fixed frames that sit under it (app bar, side menu, toasts). */
const BANNER_HEIGHT_VARIABLE = '--site-banner-height';

/**
 * Keeps `--site-banner-height` on the root element equal to the banner's height (0 without it): the
 * account and admin shells' fixed app bar and side menu start below it, so a banner takes its own
 * space above the header instead of covering its menu button and logo (docs/decisions/106).
 */
function useBannerHeight(element: RefObject<HTMLDivElement | null>, isShown: boolean) {
  useLayoutEffect(() => {
    const root = document.documentElement;
    const banner = element.current;
    if (!isShown || !banner) {
      root.style.removeProperty(BANNER_HEIGHT_VARIABLE);
      return;
    }
    const publish = () => root.style.setProperty(BANNER_HEIGHT_VARIABLE, `${banner.offsetHeight}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(banner);
    return () => {
      observer.disconnect();
      root.style.removeProperty(BANNER_HEIGHT_VARIABLE);
    };
  }, [element, isShown]);
}

/** The announcement the reader put away (this tab): a new text shows again. */
const DISMISSED_KEY = 'announcement-dismissed';

function readDismissed(): string | null {
  try {
    return sessionStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

/** A sentence mark, maybe followed by closing quotes or brackets: « Merci de patienter. » */
const ENDS_A_SENTENCE = /[.!?…]\s*[»”"')\]]*$/;
/** Punctuation left hanging at the end ("Mise à jour :"): replaced by the full stop. */
const HANGING_MARKS = /[\s:;,]+$/;

/**
 * The running window's message, closed by one sentence mark whatever the staff typed, then its end
 * in the reader's time: "Mise à jour. Fin prévue à 22:30." (the day named when it is not today).
 */
export function maintenanceWindowText(message: string, endsAt: string, now = new Date()): string {
  const sentence = message.trim();
  const closed = ENDS_A_SENTENCE.test(sentence) ? sentence : `${sentence.replace(HANGING_MARKS, '')}.`;
  const end = new Date(endsAt);
  const time = end.toLocaleTimeString('fr-FR', { timeStyle: 'short' });
  const when =
    end.toDateString() === now.toDateString()
      ? `à ${time}`
      : `le ${end.toLocaleDateString('fr-FR', { dateStyle: 'short' })} à ${time}`;
  return `${closed} Fin prévue ${when}.`;
}

/**
 * Maintenance notice, running maintenance window and announcement from the public settings: plain paragraphs and static CSS
 * (no MUI Alert, Box or Typography in the first load, docs/decisions/103).
 */
export function SiteBanner({
  settings,
  showMaintenance = true,
}: {
  settings: PublicSettings | undefined;
  /** False where staff get their own maintenance status (the admin area). */
  showMaintenance?: boolean;
}) {
  const element = useRef<HTMLDivElement>(null);
  const [dismissed, setDismissed] = useState(readDismissed);
  const isMaintenanceShown = showMaintenance && settings?.maintenanceMode === true;
  // On a phone a long announcement takes a good part of the screen: the reader may put it away.
  const announcement =
    settings?.announcement && settings.announcement !== dismissed ? settings.announcement : '';
  const dismiss = () => {
    setDismissed(announcement);
    try {
      sessionStorage.setItem(DISMISSED_KEY, announcement);
    } catch {
      // Private browsing without storage: put away until the next page load.
    }
  };
  // A scheduled maintenance window shows by itself while it runs, everywhere (decision 907).
  const running = settings?.maintenanceWindow ?? null;
  const isShown = isMaintenanceShown || running !== null || announcement !== '';
  useBannerHeight(element, isShown);
  if (!settings || !isShown) return null;
  return (
    <div role="status" className={classes.banner} ref={element} data-testid="site-banner">
      {isMaintenanceShown ? (
        <p className={classes.maintenance}>
          {settings.maintenanceMessage ||
            'Le site est en maintenance. Certaines fonctions sont indisponibles.'}
        </p>
      ) : null}
      {running ? (
        <p className={classes.maintenance} data-testid="maintenance-window-banner">
          {maintenanceWindowText(running.message, running.endsAt)}
        </p>
      ) : null}
      {announcement ? (
        <p className={classes.announcement}>
          <span>{announcement}</span>
          <button type="button" className={classes.dismiss} onClick={dismiss} aria-label="Masquer l’annonce">
            ×
          </button>
        </p>
      ) : null}
    </div>
  );
}
