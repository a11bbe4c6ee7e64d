/**
 * Server rendering of the five public pages, run once at build time (vite.config.ts, `prerender`):
 * their HTML goes into `dist/prerendered/`, which the server sends for those paths, so the first paint
 * needs no script (docs/decisions/106). The app then starts in the browser as usual and replaces this
 * markup with the same one (main.tsx waits for the page's chunk first: no blank frame).
 */
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  type RouteObject,
  StaticRouterProvider,
} from 'react-router';
import ForgotPasswordPage from '../features/auth/pages/forgot-password-page.tsx';
import LoginPage from '../features/auth/pages/login-page.tsx';
import RegisterPage from '../features/auth/pages/register-page.tsx';
import LandingPage from '../features/landing/pages/landing-page.tsx';
import StartedPage from '../features/landing/pages/started-page.tsx';
import { LandingLayout } from './layouts/landing-layout.tsx';
import MuiThemeLayout from './layouts/mui-theme-layout.tsx';

/** The public pages as the router nests them (app/router.tsx), without the lazy loading. */
const routes: RouteObject[] = [
  {
    element: <LandingLayout />,
    children: [
      { index: true, element: <LandingPage /> },
      {
        element: <MuiThemeLayout />,
        children: [
          { path: 'login', element: <LoginPage /> },
          { path: 'register', element: <RegisterPage /> },
          { path: 'forgot-password', element: <ForgotPasswordPage /> },
          { path: 'started', element: <StartedPage /> },
        ],
      },
    ],
  },
];

/** The markup of a public page as a first-time visitor (signed out, no settings yet) sees it. */
export async function renderPublicPage(path: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`prérendu impossible : ${path} répond ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return inertForms(
    renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />),
  );
}

/**
 * The prerendered forms wait for the app: their fields are read-only and their submit buttons
 * disabled until it replaces them. Text typed into the static copy would be lost when the app
 * renders, and a static form would submit itself as a GET, the password in the address.
 */
function inertForms(markup: string): string {
  return markup
    .replaceAll('<input ', '<input readonly="" ')
    .replaceAll('<textarea ', '<textarea readonly="" ')
    .replace(/<button ([^>]*type="submit")/g, '<button disabled="" $1');
}
