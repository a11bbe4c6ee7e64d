import { useEffect } from 'react';
import { APP_NAME } from '../lib/constants.ts';

/**
 * Sets the document title. A module of its own: the landing page uses it without the page header's
 * MUI Box and Typography, which would otherwise join the entry chunk (docs/decisions/103).
 */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · ${APP_NAME}`;
  }, [title]);
}
