import type { Permission } from './permissions.ts';

export type Layout = 'landing' | 'account' | 'admin';
export type GuardKind = 'account' | 'auth' | null;

export interface WebRoute {
  path: string;
  name: string;
  layout: Layout;
  guard: GuardKind;
  /** All of these permissions are required. */
  permissions: Permission[];
}

/** docs/specification.md §2, exactly (spelling `/account/whitlist` included), and `/admin/releases` (decision 900). */
export const WEB_ROUTES: WebRoute[] = [
  { path: '/', name: 'Accueil', layout: 'landing', guard: null, permissions: [] },
  { path: '/login', name: 'Connexion', layout: 'landing', guard: null, permissions: [] },
  { path: '/register', name: 'Inscription', layout: 'landing', guard: null, permissions: [] },
  { path: '/forgot-password', name: 'Mot de passe oublié', layout: 'landing', guard: null, permissions: [] },
  { path: '/started', name: 'Bien démarrer', layout: 'landing', guard: null, permissions: [] },
  { path: '/account', name: 'Mon compte', layout: 'account', guard: 'account', permissions: [] },
  { path: '/account/marketplace', name: 'Boutique', layout: 'account', guard: 'account', permissions: [] },
  {
    path: '/account/mybot',
    name: 'Mon bot',
    layout: 'account',
    guard: 'account',
    permissions: ['can_useGathering', 'can_useTreasure'],
  },
  { path: '/account/payments', name: 'Mes paiements', layout: 'account', guard: 'account', permissions: [] },
  { path: '/account/whitlist', name: 'Liste blanche', layout: 'account', guard: 'account', permissions: [] },
  {
    path: '/account/notifications',
    name: 'Notifications',
    layout: 'account',
    guard: 'account',
    permissions: [],
  },
  { path: '/admin', name: 'Administration', layout: 'admin', guard: 'auth', permissions: ['can_manageMap'] },
  { path: '/admin/audit', name: 'Audit', layout: 'admin', guard: 'auth', permissions: ['can_manageAudit'] },
  { path: '/admin/map', name: 'Carte', layout: 'admin', guard: 'auth', permissions: ['can_manageMap'] },
  {
    path: '/admin/package',
    name: 'Offres',
    layout: 'admin',
    guard: 'auth',
    permissions: ['can_managePackages'],
  },
  {
    path: '/admin/payments',
    name: 'Paiements',
    layout: 'admin',
    guard: 'auth',
    permissions: ['can_manageSettings'],
  },
  {
    path: '/admin/permission',
    name: 'Permissions',
    layout: 'admin',
    guard: 'auth',
    permissions: ['can_managePermissions'],
  },
  { path: '/admin/role', name: 'Rôles', layout: 'admin', guard: 'auth', permissions: ['can_manageRoles'] },
  {
    path: '/admin/releases',
    name: 'Versions du bot',
    layout: 'admin',
    guard: 'auth',
    permissions: ['can_manageSettings'],
  },
  {
    path: '/admin/route',
    name: 'Itinéraires',
    layout: 'admin',
    guard: 'auth',
    permissions: ['can_manageRoute'],
  },
  {
    path: '/admin/settings',
    name: 'Paramètres',
    layout: 'admin',
    guard: 'auth',
    permissions: ['can_manageSettings'],
  },
  {
    path: '/admin/users',
    name: 'Utilisateurs',
    layout: 'admin',
    guard: 'auth',
    permissions: ['can_manageUsers'],
  },
  {
    path: '/admin/users/:id',
    name: 'Utilisateur',
    layout: 'admin',
    guard: 'auth',
    permissions: ['can_manageUsers'],
  },
  {
    path: '/admin/usersOnline',
    name: 'Utilisateurs en ligne',
    layout: 'admin',
    guard: 'auth',
    permissions: ['can_manageUsersOnline'],
  },
  {
    path: '/admin/vouchers',
    name: 'Bons',
    layout: 'admin',
    guard: 'auth',
    permissions: ['can_manageVoucher'],
  },
  {
    path: '/admin/whitelist',
    name: 'Liste blanche',
    layout: 'admin',
    guard: 'auth',
    permissions: ['can_manageWhitelist'],
  },
];

/** True when a browser path belongs to the route table (the server then serves the app). */
export function matchWebRoute(pathname: string): WebRoute | undefined {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return WEB_ROUTES.find((route) => {
    const pattern = new RegExp(`^${route.path.replace(/:[^/]+/g, '[^/]+')}$`);
    return pattern.test(clean);
  });
}
