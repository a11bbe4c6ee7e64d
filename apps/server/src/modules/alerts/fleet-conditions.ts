import {
  type FleetAlertRule,
  HEALTH_FIGURE_LABELS,
  KEY_SET_EXPIRY_WARNING_DAYS,
  MAIL_BACKLOG_MINUTES,
  WEBHOOK_FAILURES_THRESHOLD,
  WEBHOOK_FAILURES_WINDOW_MINUTES,
} from '@bot/contracts';
import type { AppContext } from '../../context.ts';
import { findCurrentKeySet } from '../licensing/index.ts';
import { mailBacklog } from '../mail/index.ts';
import { type WebhookHealth, webhookHealth } from '../payments/index.ts';
import { type HaltedRelease, haltedReleases } from '../releases/index.ts';
import type { HoldingCondition } from './alert-conditions.ts';

/**
 * The state of the fleet one evaluation reads once for every staff member watching it. `errors` is
 * undefined when the presence store could not be read (Redis away): the incidents of that rule stay
 * as they are, neither closed nor opened.
 */
export interface FleetState {
  errors: { online: number; inError: number } | undefined;
  webhooks: WebhookHealth | undefined;
  mail: Awaited<ReturnType<typeof mailBacklog>> | undefined;
  /** Builds whose staged rollout halted itself (decision 910). */
  halted: HaltedRelease[] | undefined;
  /** When the root-signed key set expires (null: none signed yet), decision 912. */
  keySetExpiresAt: Date | null | undefined;
}

export interface FleetWatcher {
  fleetRules: ReadonlySet<FleetAlertRule>;
  fleetErrorPercent: number;
}

/** Reads only what at least one watcher asked for. */
export async function readFleetState(
  ctx: AppContext,
  input: { wanted: ReadonlySet<FleetAlertRule>; now: Date },
): Promise<FleetState> {
  const { wanted, now } = input;
  return {
    errors: wanted.has('fleet_errors') ? await fleetErrors(ctx) : undefined,
    webhooks: wanted.has('payment_webhooks') ? await webhookHealth(ctx, 'stripe', now) : undefined,
    mail: wanted.has('mail_backlog') ? await mailBacklog(ctx) : undefined,
    halted: wanted.has('release_halted') ? await haltedReleases(ctx) : undefined,
    keySetExpiresAt: wanted.has('key_set_expiring')
      ? ((await findCurrentKeySet(ctx))?.expiresAt ?? null)
      : undefined,
  };
}

async function fleetErrors(ctx: AppContext): Promise<FleetState['errors']> {
  try {
    const online = (await ctx.live.onlineBots()).filter((bot) => bot.online);
    const inError = online.filter((bot) => bot.accounts.some((account) => account.status === 'error'));
    return { online: online.length, inError: inError.length };
  } catch (error) {
    ctx.log.warn({ err: error }, 'alerte de flotte : bots en ligne illisibles, incidents laissés en l’état');
    return undefined;
  }
}

/** Whether the rule's state is unknown this time: its open incident must not be closed (no false recovery). */
export function isFleetRuleUnknown(state: FleetState, rule: FleetAlertRule): boolean {
  if (rule === 'fleet_errors') return state.errors === undefined;
  // Only an accepted call ends a webhook incident: fewer failures lately may just mean fewer calls.
  if (rule === 'payment_webhooks') return state.webhooks?.last?.accepted !== true;
  if (rule === 'release_halted') return state.halted === undefined;
  if (rule === 'key_set_expiring') return state.keySetExpiresAt === undefined;
  return state.mail === undefined;
}

/** The fleet conditions that hold now for one staff member (their rules, their threshold). */
export function fleetConditions(state: FleetState, watcher: FleetWatcher, now: Date): HoldingCondition[] {
  const holding: HoldingCondition[] = [];
  const { errors, webhooks, mail } = state;
  if (watcher.fleetRules.has('fleet_errors') && errors && errors.inError > 0) {
    // Compared exactly (19.5 % does not reach 20 %); shown rounded.
    if (errors.inError * 100 >= watcher.fleetErrorPercent * errors.online) {
      const percent = Math.round((errors.inError * 100) / errors.online);
      holding.push(
        fleetCondition('fleet_errors', 'fleet', now, {
          title: `Flotte : ${percent} % des bots en erreur`,
          body: `${errors.inError} bot${plural(errors.inError)} sur ${errors.online} en ligne ${errors.inError > 1 ? 'ont' : 'a'} un compte de jeu en erreur : votre seuil de ${watcher.fleetErrorPercent} % est atteint. Les utilisateurs en ligne et la carte montrent lesquels.`,
        }),
      );
    }
  }
  const lastCall = webhooks?.last;
  if (
    watcher.fleetRules.has('payment_webhooks') &&
    webhooks &&
    lastCall &&
    !lastCall.accepted &&
    webhooks.failures >= WEBHOOK_FAILURES_THRESHOLD
  ) {
    holding.push(
      fleetCondition('payment_webhooks', webhooks.provider, webhooks.failingSince ?? now, {
        title: 'Webhooks de paiement Stripe en échec',
        body: `${webhooks.failures} appels de Stripe refusés ou en erreur en ${WEBHOOK_FAILURES_WINDOW_MINUTES} min (dernier : HTTP ${lastCall.status}). ${lastCall.status === 400 ? 'Signature refusée : vérifiez que STRIPE_WEBHOOK_SECRET est celui du point de terminaison chez Stripe.' : 'Consultez les journaux du serveur.'} Les paiements ne sont pas confirmés tant que cela dure.`,
      }),
    );
  }
  const waitingMs = mail?.oldest ? now.getTime() - mail.oldest.getTime() : 0;
  if (watcher.fleetRules.has('mail_backlog') && mail?.oldest && waitingMs >= MAIL_BACKLOG_MINUTES * 60_000) {
    const error = mail.lastError
      ? ` Dernière erreur : ${withoutAddresses(mail.lastError).slice(0, 200)}`
      : '';
    holding.push(
      fleetCondition('mail_backlog', 'mail', mail.oldest, {
        title: 'File des e-mails en retard',
        body: `${mail.waiting} e-mail${plural(mail.waiting)} en attente, le plus ancien depuis ${Math.round(waitingMs / 60_000)} min : vérifiez le serveur SMTP.${error}`,
      }),
    );
  }
  if (watcher.fleetRules.has('release_halted'))
    for (const release of state.halted ?? []) holding.push(haltCondition(release, now));
  const expiresAt = state.keySetExpiresAt;
  const warnFrom = expiresAt ? expiresAt.getTime() - KEY_SET_EXPIRY_WARNING_DAYS * 86_400_000 : Infinity;
  if (watcher.fleetRules.has('key_set_expiring') && expiresAt && now.getTime() >= warnFrom)
    holding.push(keySetCondition(expiresAt, new Date(warnFrom), now));
  return holding;
}

/** The key set nears its expiry (decision 912): past it every agent refuses every lease. */
function keySetCondition(expiresAt: Date, since: Date, now: Date): HoldingCondition {
  const days = Math.ceil((expiresAt.getTime() - now.getTime()) / 86_400_000);
  const when = days > 0 ? `expire dans ${days} jour${plural(days)} (${expiresAt.toISOString()})` : 'a expiré';
  return fleetCondition('key_set_expiring', 'key-set', since, {
    title: `Le jeu de clés des bots ${days > 0 ? `expire dans ${days} jour${plural(days)}` : 'a expiré'}`,
    body: `Le jeu de clés signé par la clé racine ${when} : passé ce délai, les bots refusent tout bail. Sur la machine qui garde la clé racine, lancez npm run keys:rotate -- --root-key /chemin/vers/racine.jwk --purpose none (docs/licensing.md).`,
  });
}

/** One halted build: which figure of its bots stopped it, against which version. */
function haltCondition(release: HaltedRelease, now: Date): HoldingCondition {
  const exceeded = release.health.figures.filter((figure) => figure.exceeded);
  const figures = exceeded
    .map((figure) => `${HEALTH_FIGURE_LABELS[figure.name]} : ${figure.release} contre ${figure.baseline}`)
    .join(' ; ');
  const baseline = release.health.baselineVersion
    ? `ceux de la version ${release.health.baselineVersion}`
    : 'ceux des autres versions';
  return fleetCondition('release_halted', `release:${release.version}`, new Date(release.health.at ?? now), {
    title: `Déploiement de la version ${release.version} arrêté`,
    body: `Ses ${release.health.releaseBots} bots font pire que ${baseline} (${figures}). Il ne s’étend plus : reprenez-le ou retirez la version depuis la page des versions.`,
  });
}

function fleetCondition(
  rule: FleetAlertRule,
  subject: string,
  since: Date,
  text: { title: string; body: string },
): HoldingCondition {
  return { rule, subject, since, message: null, text: { kind: 'alert', ...text } };
}

/** SMTP errors often quote the recipient: the alert (possibly on Discord) must not carry it. */
function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>()"',;:]+@[^\s<>()"',;:]+/g, '[adresse]');
}

function plural(count: number): string {
  return count > 1 ? 's' : '';
}
