import {
  recoveryCodesAnswer,
  secondFactorInput,
  successAnswer,
  twoFactorEnableInput,
  twoFactorReauthInput,
  twoFactorSetupAnswer,
  twoFactorStatusAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditActorOf, requireSession, requireSignInInProgress, sessionOf } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import {
  confirmEnrollment,
  disableTwoFactor,
  getTwoFactorStatus,
  passSecondFactor,
  renewRecoveryCodes,
  startEnrollment,
} from './two-factor.service.ts';

const tags = ['two-factor'];

/** The second step of a sign-in, for a session that has given its password only. */
export const secondFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/second-factor',
    {
      onRequest: requireSignInInProgress,
      config: { errors: [409, 429] },
      schema: { tags, body: secondFactorInput, response: { 200: successAnswer } },
    },
    async (request) => {
      await passSecondFactor(app.ctx, sessionOf(request), request.body.code, auditActorOf(request));
      return { success: true as const };
    },
  );
};

/** `/me/two-factor`: the signed-in user turns two-factor authentication on and off. */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requireSession);

  app.get(
    '/me/two-factor',
    { schema: { tags, response: { 200: twoFactorStatusAnswer } } },
    async (request) => ({
      data: await getTwoFactorStatus(ctx, sessionOf(request).userId),
    }),
  );

  app.post(
    '/me/two-factor/setup',
    {
      config: { errors: [409], secretAnswer: true },
      schema: { tags, response: { 200: twoFactorSetupAnswer } },
    },
    async (request) => {
      const { userId, username } = sessionOf(request);
      return { data: await startEnrollment(ctx, { userId, username }) };
    },
  );

  app.post(
    '/me/two-factor/enable',
    {
      config: { errors: [409, 429], secretAnswer: true },
      schema: { tags, body: twoFactorEnableInput, response: { 200: recoveryCodesAnswer } },
    },
    async (request) => {
      const { userId, sessionId } = sessionOf(request);
      const recoveryCodes = await confirmEnrollment(
        ctx,
        { userId, sessionId, ...request.body },
        auditActorOf(request),
      );
      return { data: { recoveryCodes } };
    },
  );

  app.post(
    '/me/two-factor/disable',
    {
      config: { errors: [409, 429] },
      schema: { tags, body: twoFactorReauthInput, response: { 200: successAnswer } },
    },
    async (request) => {
      const { userId, sessionId } = sessionOf(request);
      await disableTwoFactor(ctx, { userId, sessionId, ...request.body }, auditActorOf(request));
      return { success: true as const };
    },
  );

  app.post(
    '/me/two-factor/recovery-codes',
    {
      config: { errors: [409, 429], secretAnswer: true },
      schema: { tags, body: twoFactorReauthInput, response: { 200: recoveryCodesAnswer } },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const recoveryCodes = await renewRecoveryCodes(ctx, { userId, ...request.body }, auditActorOf(request));
      return { data: { recoveryCodes } };
    },
  );
};
