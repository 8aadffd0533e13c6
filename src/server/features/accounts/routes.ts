import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccountIdParamsSchema,
  AccountTimeZoneSchema,
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
import { findTimeZone, updateTimeZone } from './repository.ts';
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
  type Run<Body extends z.ZodType, Out> = (
    body: z.infer<Body>,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<Out>;
  /** A rate-limited POST of a body that answers `code` with what `run` returns, as `response` describes it. */
  const limitedPost = <Body extends z.ZodType, Out>(
    url: string,
    body: Body,
    preHandler: (request: FastifyRequest) => Promise<void>,
    [code, response]: [number, z.ZodType<Out>],
    run: Run<Body, Out>,
  ) =>
    // Untyped: the type provider cannot follow a generic schema. The schema still parses the body and the answer.
    app.post(
      url,
      { schema: { body, response: { [code]: response } }, preHandler },
      async (request, reply) => {
        reply.code(code);
        return run(request.body as z.infer<Body>, request, reply);
      },
    );
  /** A rate-limited POST of a body that answers 200 with the message `run` returns. */
  const statusPost = <Body extends z.ZodType>(
    url: string,
    body: Body,
    preHandler: (request: FastifyRequest) => Promise<void>,
    run: Run<Body, string>,
  ) =>
    limitedPost(url, body, preHandler, [200, StatusResponseSchema], async (...args) =>
      ok(await run(...args)),
    );

  limitedPost('/signUp', SignUpBodySchema, limit.signUp, [203, SignUpResponseSchema], async (body) => ({
    data: await accounts.signUp(deps, body),
  }));

  api.get('/verifyEmail', { schema: { querystring: VerifyQuerySchema } }, async (request, reply) => {
    const outcome = request.query.token ? await accounts.verifyEmail(deps, request.query.token) : 'invalid';
    // A plain GET that redirects, so the link works from any mail client.
    return reply.redirect(outcome === 'verified' ? '/emailVerified' : `/emailVerify?reason=${outcome}`, 303);
  });

  statusPost('/resendVerification', EmailBodySchema, limit.resendVerification, async ({ email }) => {
    await accounts.resendVerification(deps, email);
    return 'If that address has an unverified account, a new link is on its way.';
  });

  limitedPost(
    '/login',
    LoginBodySchema,
    limit.login,
    [201, LoginResponseSchema],
    async (body, request, reply) => {
      const session = await accounts.logIn(deps, body);
      await trustBrowser(request, reply, session.id);
      return session;
    },
  );

  statusPost('/sendOtp', EmailBodySchema, limit.sendOtp, async ({ email }, request) => {
    await accounts.sendResetCode(deps, email, await limit.mayMailCode(request));
    return ACCOUNT_MESSAGES.otpSent;
  });

  statusPost(
    '/updatePassword',
    UpdatePasswordBodySchema,
    limit.updatePassword,
    async (body, request, reply) => {
      await trustBrowser(request, reply, await accounts.resetPassword(deps, body));
      return ACCOUNT_MESSAGES.passwordUpdated;
    },
  );

  // The reset mail's link: its secret alone names the account, and no one else's wrong codes or requests end it.
  statusPost('/resetPassword', ResetPasswordBodySchema, limit.resetPassword, async (body, request, reply) => {
    await trustBrowser(request, reply, await accounts.resetPasswordWithLink(deps, body));
    return ACCOUNT_MESSAGES.passwordUpdated;
  });

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

    // The zone every time is shown in, kept with the account: the token names whose.
    ownerApi.get('/timeZone', { schema: { response: { 200: AccountTimeZoneSchema } } }, async (request) => ({
      timeZone: await findTimeZone(app.db, ownerOf(request).id),
    }));
    ownerApi.put(
      '/timeZone',
      { schema: { body: AccountTimeZoneSchema, response: { 200: AccountTimeZoneSchema } } },
      async (request) => {
        await updateTimeZone(app.db, ownerOf(request).id, request.body.timeZone);
        return { timeZone: request.body.timeZone };
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
