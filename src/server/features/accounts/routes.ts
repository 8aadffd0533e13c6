import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccountIdParamsSchema,
  ChangePasswordBodySchema,
  ACCOUNT_MESSAGES,
  EmailBodySchema,
  LoginBodySchema,
  LoginResponseSchema,
  ProfileSchema,
  ResetPasswordBodySchema,
  SignUpBodySchema,
  SignUpResponseSchema,
  StatusResponseSchema,
  UpdatePasswordBodySchema,
  UpdateProfileBodySchema,
} from '#common/accounts.ts';
import { authenticate, ownerOf } from '../../http/auth.ts';
import { networkOf } from '../../http/client-address.ts';
import { notFound } from '../../http/errors.ts';
import { deviceCookie, rememberDevice } from './devices.ts';
import { accountLimits, attemptsMessage } from './limits.ts';
import * as accounts from './service.ts';

const VerifyQuerySchema = z.object({ token: z.string().max(200).optional() });

/** The account routes, under /api/v1 (docs/api.md, Accounts). */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: accounts.AccountDeps = { db: app.db, mailer: app.mailer, publicUrl: app.config.publicUrl };
  const limits = app.config.rateLimits;
  const limit = accountLimits(app);
  const isSecure = app.config.publicUrl.startsWith('https:');
  /** Once a password or a reset is proven, this browser is recognised at the account's next logins. */
  const trustBrowser = async (request: FastifyRequest, reply: FastifyReply, accountId: string) => {
    const secret = await rememberDevice(app.db, accountId, request.headers.cookie);
    reply.header('set-cookie', deviceCookie(secret, isSecure));
  };
  const ok = (message: string) => ({ ok: true as const, message });

  api.post(
    '/signUp',
    {
      schema: { body: SignUpBodySchema, response: { 203: SignUpResponseSchema } },
      preHandler: limit.signUp,
    },
    async (request, reply) => {
      const profile = await accounts.signUp(deps, request.body);
      return reply.code(203).send({ data: profile });
    },
  );

  api.get('/verifyEmail', { schema: { querystring: VerifyQuerySchema } }, async (request, reply) => {
    const outcome = request.query.token ? await accounts.verifyEmail(deps, request.query.token) : 'invalid';
    // A plain GET that redirects, so the link works from any mail client.
    return reply.redirect(outcome === 'verified' ? '/emailVerified' : `/emailVerify?reason=${outcome}`, 303);
  });

  api.post(
    '/resendVerification',
    {
      schema: { body: EmailBodySchema, response: { 200: StatusResponseSchema } },
      preHandler: limit.resendVerification,
    },
    async (request) => {
      await accounts.resendVerification(deps, request.body.email);
      return ok('If that address has an unverified account, a new link is on its way.');
    },
  );

  api.post(
    '/login',
    {
      schema: { body: LoginBodySchema, response: { 201: LoginResponseSchema } },
      preHandler: limit.login,
    },
    async (request, reply) => {
      const session = await accounts.logIn(deps, request.body);
      await trustBrowser(request, reply, session.id);
      return reply.code(201).send(session);
    },
  );

  api.post(
    '/sendOtp',
    {
      schema: { body: EmailBodySchema, response: { 200: StatusResponseSchema } },
      preHandler: limit.sendOtp,
    },
    async (request) => {
      await accounts.sendResetCode(deps, request.body.email, await limit.mayMailCode(request));
      return ok(ACCOUNT_MESSAGES.otpSent);
    },
  );

  api.post(
    '/updatePassword',
    {
      schema: { body: UpdatePasswordBodySchema, response: { 200: StatusResponseSchema } },
      preHandler: limit.updatePassword,
    },
    async (request, reply) => {
      await trustBrowser(request, reply, await accounts.resetPassword(deps, request.body));
      return ok(ACCOUNT_MESSAGES.passwordUpdated);
    },
  );

  // The reset mail's link: its secret alone names the account, and no one else's wrong codes or requests end it.
  api.post(
    '/resetPassword',
    {
      schema: { body: ResetPasswordBodySchema, response: { 200: StatusResponseSchema } },
      preHandler: limit.resetPassword,
    },
    async (request, reply) => {
      await trustBrowser(request, reply, await accounts.resetPasswordWithLink(deps, request.body));
      return ok(ACCOUNT_MESSAGES.passwordUpdated);
    },
  );

  // The signed-in owner's own account. One hook checks the token for all of them, so no route can miss it.
  await app.register(async (scope) => {
    scope.addHook('onRequest', authenticate);
    const ownerApi = scope.withTypeProvider<ZodTypeProvider>();
    ownerApi.post('/logout', { schema: { response: { 200: StatusResponseSchema } } }, async (request) => {
      await accounts.logOut(deps, ownerOf(request).tokenHash);
      return ok('You are logged out');
    });

    ownerApi.put(
      '/profile',
      { schema: { body: UpdateProfileBodySchema, response: { 200: ProfileSchema } } },
      async (request) => {
        const owner = ownerOf(request);
        await accounts.renameAccount(deps, owner.id, request.body.fullName);
        return { fullName: request.body.fullName, email: owner.email };
      },
    );

    ownerApi.post(
      '/changePassword',
      {
        schema: { body: ChangePasswordBodySchema, response: { 200: StatusResponseSchema } },
        preHandler: scope.rateLimit({
          max: limits.loginPerEmail.max,
          timeWindow: limits.loginPerEmail.windowMs,
          keyGenerator: (req) => `changePassword:${req.owner?.id ?? networkOf(req.ip)}`,
          // The Settings page shows the message: the same words as the other account limits.
          errorResponseBuilder: (_req, context) => ({
            statusCode: 429,
            message: attemptsMessage(context.ttl / 1000),
          }),
        }),
      },
      async (request) => {
        await accounts.changePassword(deps, ownerOf(request), request.body);
        return ok('Password changed');
      },
    );

    ownerApi.get(
      '/:id',
      { schema: { params: AccountIdParamsSchema, response: { 200: ProfileSchema } } },
      async (request) => {
        const owner = ownerOf(request);
        // Someone else's id looks exactly like an unknown one.
        if (request.params.id !== owner.id) throw notFound('No such account');
        return { fullName: owner.fullName, email: owner.email };
      },
    );
  });
}
