import { isStaffPermission, type Permission } from '@bot/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';
import type { Guard } from './route-docs.ts';

/** A signed-in session, as the auth module finds it behind a bearer token. */
export interface AuthenticatedSession {
  sessionId: string;
  userId: string;
  username: string;
  isAdministrator: boolean;
  expiresAt: Date;
  /** The account has two-factor authentication on. */
  twoFactorEnabled: boolean;
  /** Two-factor is on and this session has not given a code yet: good for nothing but giving one. */
  secondFactorPending: boolean;
}

/**
 * What the guards ask about a request's bearer. Every module's routes use the guards, so they sit
 * below the modules and import none: the auth, access and two-factor modules answer through this
 * port, which `app.ts` puts on the app (docs/architecture.md, "Modules and their entries").
 */
export interface SessionAuthority {
  findSession(
    token: string,
    options: { includePending?: boolean },
  ): Promise<AuthenticatedSession | undefined>;
  hasPermissions(userId: string, required: readonly Permission[]): Promise<boolean>;
  /** Throws `TWO_FACTOR_ENROLLMENT_REQUIRED` when the site requires two-factor of staff and this one lacks it. */
  assertStaffSecondFactor(session: AuthenticatedSession): Promise<void>;
  /** The live bot session behind an agent's token, for the PC it is bound to (`hwid`). */
  findBotSession(input: { token: string; hwid: string }): Promise<BotSessionOfRequest | undefined>;
}

/** Whose bot calls, and from which bound PC. */
export interface BotSessionOfRequest {
  userId: string;
  hwid: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionAuthority: SessionAuthority;
  }
  interface FastifyRequest {
    /** The signed-in session, set by `requireSession`. */
    auth: AuthenticatedSession | null;
  }
}

export function readBearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : undefined;
}

/**
 * Resolves the bearer session if there is one, without requiring it. A session still waiting for
 * its second factor counts as none, unless `includePending` (the routes that finish a sign-in).
 */
export async function loadSession(
  request: FastifyRequest,
  options: { includePending?: boolean } = {},
): Promise<AuthenticatedSession | null> {
  if (request.auth) {
    return request.auth.secondFactorPending && !options.includePending ? null : request.auth;
  }
  const token = readBearerToken(request);
  if (!token || token.length > 256) return null;
  request.auth = (await request.server.sessionAuthority.findSession(token, options)) ?? null;
  return request.auth;
}

/**
 * Guards are hooks of the shape `(request) => Promise<void>`: use them as `onRequest` so that an
 * anonymous caller gets 401 before any body validation (400) can tell them about the route. Each
 * carries the statuses it answers, which the OpenAPI document lists (`core/route-docs.ts`).
 */
function guard(check: (request: FastifyRequest) => Promise<void>, answers: number[]): Guard {
  return Object.assign(check, { answers });
}

/** 401 unless the request carries a live session. */
export const requireSession: Guard = guard(
  async (request) => {
    if (!(await loadSession(request))) throw new AppError('UNAUTHORIZED');
  },
  [401],
);

/** 401 unless the request carries a live session, one that has not given its second factor yet included. */
export const requireSignInInProgress: Guard = guard(
  async (request) => {
    if (!(await loadSession(request, { includePending: true }))) throw new AppError('UNAUTHORIZED');
  },
  [401],
);

/**
 * 401 without a session, 403 unless the user holds every named permission. Guards name permissions,
 * never roles. Staff permissions also need two-factor when the site requires it of staff.
 */
export function requirePermission(...required: Permission[]): Guard {
  return guard(
    async (request) => {
      const session = await loadSession(request);
      if (!session) throw new AppError('UNAUTHORIZED');
      if (!(await request.server.sessionAuthority.hasPermissions(session.userId, required)))
        throw new AppError('FORBIDDEN');
      if (required.some(isStaffPermission))
        await request.server.sessionAuthority.assertStaffSecondFactor(session);
    },
    [401, 403],
  );
}

/** 401 without a session, 403 unless the user holds at least one of the named permissions. */
export function requireAnyPermission(...accepted: Permission[]): Guard {
  return guard(
    async (request) => {
      const session = await loadSession(request);
      if (!session) throw new AppError('UNAUTHORIZED');
      const { sessionAuthority } = request.server;
      const held = await Promise.all(
        accepted.map((permission) => sessionAuthority.hasPermissions(session.userId, [permission])),
      );
      const granting = accepted.filter((_, index) => held[index]);
      if (granting.length === 0) throw new AppError('FORBIDDEN');
      if (granting.every(isStaffPermission))
        await request.server.sessionAuthority.assertStaffSecondFactor(session);
    },
    [401, 403],
  );
}

/**
 * 401 `BOT_SESSION_INVALID` unless the request carries a bearer token: a bot agent's route refuses a
 * missing token before it validates the rest, like every guard; `botSessionOf` then checks the
 * session for the PC the request names.
 */
export const requireBotToken: Guard = Object.assign(
  guard(
    async (request) => {
      if (!readBearerToken(request)) throw new AppError('BOT_SESSION_INVALID');
    },
    [401],
  ),
  { scheme: 'botSession' as const },
);

/**
 * The bot session of a bot agent's request, for its PC: 401 `BOT_SESSION_INVALID` when the token is
 * unknown, expired, revoked, too long or bound to another PC.
 */
export async function botSessionOf(
  request: FastifyRequest,
  input: { token: string | undefined; hwid: string },
): Promise<BotSessionOfRequest> {
  const { token, hwid } = input;
  const session =
    token && token.length <= 256
      ? await request.server.sessionAuthority.findBotSession({ token, hwid })
      : undefined;
  if (!session) throw new AppError('BOT_SESSION_INVALID');
  return session;
}

/** The session of a request already passed through a guard. */
export function sessionOf(request: FastifyRequest): AuthenticatedSession {
  if (!request.auth) throw new AppError('UNAUTHORIZED');
  return request.auth;
}

/** The signed-in person behind a request, as the audit log records them. */
export function auditActorOf(request: FastifyRequest): { id: string; username: string; ip: string | null } {
  const session = sessionOf(request);
  return { id: session.userId, username: session.username, ip: request.ip ?? null };
}

export function originOf(request: FastifyRequest): { ip: string | null; userAgent: string | null } {
  return { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}
