import {
  activateInput,
  checkPermissionAnswer,
  checkPermissionInput,
  forgotPasswordInput,
  loginAnswer,
  loginInput,
  registerAnswer,
  registerInput,
  resendConfirmationInput,
  resetPasswordInput,
  successAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { originOf, requireSession, requireSignInInProgress, sessionOf } from '../../core/guards.ts';
import { limitPerIp } from '../../core/rate-limit-guard.ts';
import { hasPermissions, toPublicUsers } from '../access/index.ts';
import {
  activateUser,
  loginUser,
  logout,
  registerUser,
  requestPasswordReset,
  resendConfirmation,
  resetPassword,
} from './auth.service.ts';
import { secondFactorRoutes, twoFactorRoutes } from './two-factor.routes.ts';

const tags = ['auth'];

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  await app.register(secondFactorRoutes);
  await app.register(twoFactorRoutes);

  app.post(
    '/auth/login',
    {
      config: { errors: [401, 403, 429] },
      schema: { tags, body: loginInput, response: { 200: loginAnswer } },
    },
    async (request) => {
      const { user, token, secondFactorRequired } = await loginUser(ctx, request.body, originOf(request));
      const [publicUser] = await toPublicUsers(ctx, [user]);
      return { user: publicUser!, token, secondFactorRequired };
    },
  );

  app.post(
    '/auth/register',
    {
      config: { errors: [403, 409, 429] },
      preHandler: limitPerIp('register'),
      schema: { tags, body: registerInput, response: { 201: registerAnswer } },
    },
    async (request, reply) => {
      return reply.status(201).send({ user: await registerUser(ctx, request.body, originOf(request)) });
    },
  );

  app.post(
    '/auth/activate',
    {
      config: { errors: [429] },
      preHandler: limitPerIp('activate'),
      schema: { tags, body: activateInput, response: { 200: successAnswer } },
    },
    async (request) => {
      await activateUser(ctx, request.body, originOf(request));
      return { success: true as const };
    },
  );

  app.post(
    '/auth/resend-confirmation',
    {
      schema: { tags, body: resendConfirmationInput, response: { 200: successAnswer } },
    },
    async (request) => {
      await resendConfirmation(ctx, request.body.username, originOf(request));
      return { success: true as const };
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      schema: { tags, body: forgotPasswordInput, response: { 200: successAnswer } },
    },
    async (request) => {
      await requestPasswordReset(ctx, request.body.email, originOf(request));
      return { success: true as const };
    },
  );

  app.post(
    '/auth/reset-password',
    {
      config: { errors: [429] },
      preHandler: limitPerIp('reset'),
      schema: { tags, body: resetPasswordInput, response: { 200: successAnswer } },
    },
    async (request) => {
      await resetPassword(ctx, request.body, originOf(request));
      return { success: true as const };
    },
  );

  app.post(
    '/auth/logout',
    // A sign-in abandoned at the second factor may be closed too.
    { onRequest: requireSignInInProgress, schema: { tags, response: { 200: successAnswer } } },
    async (request) => {
      const session = sessionOf(request);
      await logout(ctx, { userId: session.userId, sessionId: session.sessionId });
      return { success: true as const };
    },
  );

  app.post(
    '/auth/check-permission',
    {
      onRequest: requireSession,
      schema: { tags, body: checkPermissionInput, response: { 200: checkPermissionAnswer } },
    },
    async (request) => {
      const required = 'permissions' in request.body ? request.body.permissions : [request.body.permission];
      return { allowed: await hasPermissions(ctx, sessionOf(request).userId, required) };
    },
  );
};
