import { frFR } from '@mui/material/locale';
import { createTheme } from '@mui/material/styles';
import { theme } from './theme.ts';

/**
 * The app's theme with MUI's French component texts (pagination, autocomplete, alert, rating,
 * breadcrumbs), for the account and admin areas: the public pages have none of these components.
 * A module of its own, loaded with those areas: `@mui/material/locale`'s frFR builds an
 * `Intl.NumberFormat` as it is evaluated, the first Intl object of the page, 100 to 180 ms of main
 * thread on a throttled mobile CPU that the landing page paid before its first paint (docs/decisions/103).
 */
export const frenchTheme = createTheme(theme, frFR);
