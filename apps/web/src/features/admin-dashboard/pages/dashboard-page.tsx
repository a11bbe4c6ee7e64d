import { auditActionLabel, formatPrice, type HourlyPoint, WEB_ROUTES } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ComponentProps, type ReactNode, useEffect, useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { canSeeRoute } from '../../../app/guards/guard-decisions.ts';
import { auditTargetText } from '../../../components/audit-diff/index.ts';
import { BarChart } from '../../../components/bar-chart.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { dateTimeShort as dateTime } from '../../../lib/dates.ts';
import { useLiveData } from '../../../lib/socket/hooks.ts';
import {
  countFleetAccounts,
  emptyFleet,
  FLEET_TOTALS_VIEWPORT,
  type LiveConnectionState,
  type LiveFleet,
  liveKeys,
  setFleetViewport,
  socketClient,
  watchFleet,
} from '../../../lib/socket/index.ts';
import { type Bars, dailyBars, hourlyBars, totalSince } from '../../../lib/time-series.ts';
import {
  latestAuditQuery,
  onlineHistoryQuery,
  registrationsQuery,
  revenueQuery,
  salesQuery,
  usersQuery,
} from '../api/dashboard.ts';
import { BlockersCard } from '../components/blockers-card.tsx';
import { usePermissionCheck } from '../hooks/use-permission-check.ts';

const numberFormat = new Intl.NumberFormat('fr-FR');

const last24Hours = (points: HourlyPoint[]) => hourlyBars(points, 24);
const last30Days = (points: HourlyPoint[]) => dailyBars(points, 30);
const formatCents = (cents: number) => formatPrice(cents);

const ADMIN_LINKS = WEB_ROUTES.filter(
  (route) => route.layout === 'admin' && route.path !== '/admin' && !route.path.includes(':'),
);

const CONNECTION_LABELS: Record<
  LiveConnectionState,
  { label: string; color: 'success' | 'warning' | 'error' }
> = {
  connecting: { label: 'Connexion…', color: 'warning' },
  connected: { label: 'En direct', color: 'success' },
  reconnecting: { label: 'Reconnexion…', color: 'warning' },
  disconnected: { label: 'Déconnecté', color: 'warning' },
  refused: { label: 'Refusé', color: 'error' },
};

function DashboardCard({
  title,
  action,
  children,
  testId,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card variant="outlined" data-testid={testId} sx={{ height: '100%' }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5 }}>
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1, fontSize: '1.05rem' }}>
            {title}
          </Typography>
          {action}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

/** One figure; `count` (a number) is exposed in `data-count` for tests and tooling. */
function Figure({
  label,
  value,
  count,
  testId,
  hint,
}: {
  label: string;
  value: ReactNode;
  count?: number;
  testId: string;
  hint?: string;
}) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography
        variant="h5"
        component="p"
        data-testid={testId}
        data-count={count}
        sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
      >
        {value}
      </Typography>
      {hint ? (
        <Typography variant="caption" color="text.secondary">
          {hint}
        </Typography>
      ) : null}
    </Box>
  );
}

const loading = <Skeleton variant="text" width={80} />;
const failed = (
  <Typography component="span" color="error">
    —
  </Typography>
);

function FiguresRow({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 2 }}>{children}</Box>
  );
}

/** Bots and game accounts online, live from the admin socket (same cache as /admin/map). */
function OnlineCard() {
  const queryClient = useQueryClient();
  const fleet = useLiveData<LiveFleet>(liveKeys.fleet, emptyFleet);
  const connection = useLiveData<LiveConnectionState>(liveKeys.fleetConnection, 'connecting');
  useEffect(() => {
    // A large fleet comes as totals (decision 206): the card never holds every bot.
    setFleetViewport(queryClient, socketClient, FLEET_TOTALS_VIEWPORT);
    const stop = watchFleet(queryClient, socketClient);
    return () => {
      stop();
      socketClient.setAdminViewport(undefined);
    };
  }, [queryClient]);
  const accounts = useMemo(() => countFleetAccounts(fleet), [fleet]);
  const isLive = connection === 'connected';
  const state = CONNECTION_LABELS[connection] ?? CONNECTION_LABELS.connecting;
  return (
    <DashboardCard
      title="En ligne"
      testId="dashboard-online"
      action={<Chip size="small" variant="outlined" color={state.color} label={state.label} />}
    >
      <FiguresRow>
        <Figure
          label="Bots en ligne"
          testId="dashboard-bots-online"
          count={isLive ? fleet.onlineCount : undefined}
          value={isLive ? numberFormat.format(fleet.onlineCount) : loading}
        />
        <Figure
          label="Comptes de jeu"
          testId="dashboard-accounts-online"
          count={isLive ? accounts : undefined}
          value={isLive ? numberFormat.format(accounts) : loading}
        />
      </FiguresRow>
      <SeriesChart
        query={onlineHistoryQuery}
        toBars={last24Hours}
        title="Bots actifs par heure"
        testId="dashboard-chart-online"
        color="#66bb6a"
        unit="hour"
        period="sur 24 h"
        // A bot counts in every hour it reported in: the hours do not add up.
        showTotal={false}
      />
      <Button component={RouterLink} to="/admin/map" size="small" sx={{ mt: 1.5, px: 0 }}>
        Voir la carte
      </Button>
    </DashboardCard>
  );
}

/** Paid orders today and over 30 days (refunds excluded), from the payments totals. */
function RevenueCard() {
  const today = useQuery(revenueQuery('today'));
  const month = useQuery(revenueQuery('month'));
  const show = (query: typeof today) =>
    query.data ? formatPrice(query.data.paidCents, query.data.currency) : query.isError ? failed : loading;
  const hint = (query: typeof today) =>
    query.data
      ? `${numberFormat.format(query.data.paidCount)} ${query.data.paidCount > 1 ? 'commandes payées' : 'commande payée'}`
      : undefined;
  return (
    <DashboardCard title="Chiffre d’affaires" testId="dashboard-revenue">
      <FiguresRow>
        <Figure
          label="Aujourd’hui"
          testId="dashboard-revenue-today"
          count={today.data?.paidCents}
          value={show(today)}
          hint={hint(today)}
        />
        <Figure
          label="30 derniers jours"
          testId="dashboard-revenue-month"
          count={month.data?.paidCents}
          value={show(month)}
          hint={hint(month)}
        />
      </FiguresRow>
      <SeriesChart
        query={salesQuery}
        toBars={last30Days}
        title="Ventes par jour"
        testId="dashboard-chart-sales"
        color="#ffb74d"
        unit="day"
        period="sur 30 jours"
        formatValue={formatCents}
      />
      <Button component={RouterLink} to="/admin/payments" size="small" sx={{ mt: 1.5, px: 0 }}>
        Voir les paiements
      </Button>
    </DashboardCard>
  );
}

function UsersCard() {
  const users = useQuery(usersQuery);
  const registrations = useQuery(registrationsQuery);
  const total = users.data?.total;
  const recent = registrations.data ? totalSince(registrations.data, 7 * 24) : undefined;
  const stateOf = (query: { isError: boolean }) => (query.isError ? failed : loading);
  return (
    <DashboardCard title="Utilisateurs" testId="dashboard-users">
      <FiguresRow>
        <Figure
          label="Inscrits"
          testId="dashboard-users-total"
          count={total}
          value={total !== undefined ? numberFormat.format(total) : stateOf(users)}
        />
        <Figure
          label="Nouveaux (7 jours)"
          testId="dashboard-users-recent"
          count={recent}
          value={recent !== undefined ? numberFormat.format(recent) : stateOf(registrations)}
        />
      </FiguresRow>
      <SeriesChart
        query={registrationsQuery}
        toBars={last30Days}
        title="Nouveaux comptes par jour"
        testId="dashboard-chart-registrations"
        color="#4fc3f7"
        unit="day"
        period="sur 30 jours"
      />
      <Button component={RouterLink} to="/admin/users" size="small" sx={{ mt: 1.5, px: 0 }}>
        Voir les utilisateurs
      </Button>
    </DashboardCard>
  );
}

/** A chart of one of the dashboard's hourly series, drawn as hours or as the viewer's days. */
function SeriesChart({
  query,
  toBars,
  ...chart
}: {
  query: typeof registrationsQuery;
  toBars: (points: HourlyPoint[]) => Bars;
} & Omit<ComponentProps<typeof BarChart>, 'times' | 'values'>) {
  const series = useQuery(query);
  const bars = useMemo(() => (series.data ? toBars(series.data) : null), [series.data, toBars]);
  if (series.isError) return null; // the figures above say it failed
  return (
    <Box sx={{ mt: 2 }}>
      {bars ? <BarChart {...chart} times={bars.times} values={bars.values} /> : loading}
    </Box>
  );
}

function AuditCard() {
  const audit = useQuery(latestAuditQuery);
  return (
    <DashboardCard
      title="Dernières actions"
      testId="dashboard-audit"
      action={
        <Button component={RouterLink} to="/admin/audit" size="small">
          Tout voir
        </Button>
      }
    >
      {audit.data ? (
        audit.data.length === 0 ? (
          <Typography color="text.secondary">Aucune entrée pour l’instant.</Typography>
        ) : (
          <List dense disablePadding>
            {audit.data.map((entry) => (
              <ListItem key={entry.id} disableGutters data-testid="dashboard-audit-entry">
                <ListItemText
                  primary={auditActionLabel(entry.action)}
                  secondary={[
                    dateTime.format(new Date(entry.at)),
                    entry.actorUsername ?? 'Système',
                    auditTargetText(entry),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                  slotProps={{ secondary: { noWrap: true } }}
                />
              </ListItem>
            ))}
          </List>
        )
      ) : audit.isError ? (
        <Typography color="error">Journal indisponible.</Typography>
      ) : (
        <>
          <Skeleton />
          <Skeleton />
          <Skeleton />
        </>
      )}
    </DashboardCard>
  );
}

/** Every admin page the user may open. */
function LinksCard() {
  const { permissions, isAdministrator } = usePermissionCheck();
  const links = ADMIN_LINKS.filter((route) => isAdministrator || canSeeRoute(route, permissions));
  return (
    <DashboardCard title="Accès rapides" testId="dashboard-links">
      <Box component="nav" aria-label="Accès rapides" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {links.map((route) => (
          <Button key={route.path} component={RouterLink} to={route.path} variant="outlined" size="small">
            {route.name}
          </Button>
        ))}
      </Box>
    </DashboardCard>
  );
}

/** /admin: live counts, revenue, users, latest audit entries and links, each shown only with its permission. */
export default function DashboardPage() {
  const { has } = usePermissionCheck();
  return (
    <>
      <PageHeader title="Administration" subtitle="Vue d’ensemble de la plateforme." />
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: 'minmax(0, 1fr)',
            md: 'repeat(2, minmax(0, 1fr))',
            xl: 'repeat(3, minmax(0, 1fr))',
          },
        }}
      >
        <BlockersCard has={has} />
        <OnlineCard />
        {has('can_manageSettings') ? <RevenueCard /> : null}
        {has('can_manageUsers') ? <UsersCard /> : null}
        {has('can_manageAudit') ? <AuditCard /> : null}
        <LinksCard />
      </Box>
    </>
  );
}
