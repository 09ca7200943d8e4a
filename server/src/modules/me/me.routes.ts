/** `/api/me/*` (spec §7): the caller's profile and account. */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  LanguageQuerySchema,
  NoticeParamsSchema,
  PasswordBodySchema,
  UpdateMeBodySchema,
  UserSchema,
} from '@heizplan/contracts/account';
import {
  PasskeyListSchema,
  PasskeyParamsSchema,
  PasskeyRegisterBodySchema,
  PasskeyRegistrationOptionsSchema,
  PasskeyRenameBodySchema,
  PasskeySchema,
} from '@heizplan/contracts/passkeys';
import {
  RecoveryCodesSchema,
  SecondFactorStatusSchema,
  StepUpBodySchema,
  TotpConfirmBodySchema,
  TotpDisableBodySchema,
  TotpEnrolmentSchema,
} from '@heizplan/contracts/second-factor';
import { EndSessionsQuerySchema, SessionListSchema, SessionParamsSchema } from '@heizplan/contracts/sessions';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AUTH_TIME_CLAIM, requireAuth, SESSION_CLAIM } from '../../auth/bearer.ts';
import { problems } from '../../http/company-resource-routes.ts';
import { badRequest } from '../../http/errors.ts';
import type { MeService } from './me.service.ts';

const PASSWORD_IN_QUERY =
  'Send the new password in the JSON body {"password": "…"}, never in the query string, which ends up in logs.';

export async function meRoutes(app: FastifyInstance, { me }: { me: MeService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['me'];
  /** The caller's provider session (decision 0074): kept when a factor change ends the others. */
  const sidOf = (claims: Record<string, unknown>) =>
    typeof claims[SESSION_CLAIM] === 'string' ? (claims[SESSION_CLAIM] as string) : undefined;
  /** When the caller's session signed in (s), for the step-up (decision 0078). */
  const authTimeOf = (claims: Record<string, unknown>) =>
    typeof claims[AUTH_TIME_CLAIM] === 'number' ? (claims[AUTH_TIME_CLAIM] as number) : undefined;

  r.get(
    '/me/',
    { schema: { tags, summary: 'The caller’s profile', response: { 200: UserSchema, ...problems(401) } } },
    async (request) => me.get(requireAuth(request).sub),
  );

  r.put(
    '/me/',
    {
      schema: {
        tags,
        summary: 'Update name and email (both trimmed)',
        body: UpdateMeBodySchema,
        response: { 200: UserSchema, ...problems(400, 401) },
      },
    },
    async (request) => me.update(requireAuth(request).sub, request.body),
  );

  r.post(
    '/me/language',
    {
      schema: {
        tags,
        summary: 'Set the interface language (de or en)',
        querystring: LanguageQuerySchema,
        response: { 200: UserSchema, ...problems(400, 401) },
      },
    },
    async (request) => me.setLanguage(requireAuth(request).sub, request.query.lang),
  );

  r.put(
    '/me/password',
    {
      schema: {
        tags,
        summary:
          'Set a new password after checking the current one (JSON body, never the query string); signs the account out everywhere',
        body: PasswordBodySchema,
        response: { 204: z.null(), ...problems(400, 401, 409, 429, 503) },
      },
      // Spec §7 lists the password as a query parameter; query strings end up in access logs,
      // so such a call gets an explanation instead of a bare validation error.
      preValidation: async (request) => {
        if (Object.hasOwn(request.query as object, 'password')) {
          throw badRequest(PASSWORD_IN_QUERY, [
            { field: 'querystring.password', message: PASSWORD_IN_QUERY },
          ]);
        }
      },
    },
    async (request, reply) => {
      await me.setPassword(requireAuth(request).sub, request.body.currentPassword, request.body.password);
      return reply.code(204).send(null);
    },
  );

  r.delete(
    '/me/request_deletion',
    {
      schema: {
        tags,
        summary: 'Deactivate the account now and schedule removal of its data',
        response: { 202: z.null(), ...problems(401) },
      },
    },
    async (request, reply) => {
      await me.requestDeletion(requireAuth(request).sub);
      return reply.code(202).send(null);
    },
  );

  r.delete(
    '/me/notices/:id',
    {
      schema: {
        tags,
        summary: 'Dismiss one of the caller’s notices (e.g. "removed from company X")',
        params: NoticeParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await me.dismissNotice(requireAuth(request).sub, request.params.id);
      return reply.code(204).send(null);
    },
  );

  // The second factor (decision 0072): only the embedded provider has one; 409 otherwise.
  r.get(
    '/me/second-factor',
    {
      schema: {
        tags,
        summary: 'Whether a TOTP authenticator guards the sign-in, and unused recovery codes',
        response: { 200: SecondFactorStatusSchema, ...problems(401, 409, 503) },
      },
    },
    async (request) => me.secondFactor(requireAuth(request).sub),
  );

  r.post(
    '/me/second-factor/totp',
    {
      schema: {
        tags,
        summary:
          'Start setting up a TOTP authenticator (the password in the JSON body unless signed in within 10 minutes): a new secret, its otpauth URI and QR code (SVG)',
        body: StepUpBodySchema,
        response: { 200: TotpEnrolmentSchema, ...problems(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request) => {
      const claims = requireAuth(request);
      return me.startTotp(claims.sub, { password: request.body?.password, authTime: authTimeOf(claims) });
    },
  );

  r.post(
    '/me/second-factor/totp/confirm',
    {
      schema: {
        tags,
        summary: 'Confirm the TOTP authenticator with a current code; answers ten recovery codes, shown once',
        body: TotpConfirmBodySchema,
        response: { 200: RecoveryCodesSchema, ...problems(400, 401, 409, 503) },
      },
    },
    async (request) => {
      const claims = requireAuth(request);
      return me.confirmTotp(claims.sub, request.body.code, sidOf(claims));
    },
  );

  r.delete(
    '/me/second-factor/totp',
    {
      schema: {
        tags,
        summary: 'Disable the TOTP authenticator (password and a TOTP or recovery code in the JSON body)',
        body: TotpDisableBodySchema,
        response: { 204: z.null(), ...problems(400, 401, 409, 429, 503) },
      },
    },
    async (request, reply) => {
      const claims = requireAuth(request);
      await me.disableTotp(claims.sub, request.body.password, request.body.code, sidOf(claims));
      return reply.code(204).send(null);
    },
  );

  // Passkeys (decision 0074): only the embedded provider has them; 409 otherwise.
  r.get(
    '/me/passkeys',
    {
      schema: {
        tags,
        summary: 'The caller’s passkeys, oldest first',
        response: { 200: PasskeyListSchema, ...problems(401, 409, 503) },
      },
    },
    async (request) => me.passkeys(requireAuth(request).sub),
  );

  r.post(
    '/me/passkeys/registration-options',
    {
      schema: {
        tags,
        summary:
          'Options for navigator.credentials.create (the password in the JSON body unless signed in within 10 minutes); the challenge is valid 5 minutes, once',
        body: StepUpBodySchema,
        response: { 200: PasskeyRegistrationOptionsSchema, ...problems(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request) => {
      const claims = requireAuth(request);
      return me.passkeyRegistrationOptions(claims.sub, {
        password: request.body?.password,
        authTime: authTimeOf(claims),
      });
    },
  );

  r.post(
    '/me/passkeys',
    {
      schema: {
        tags,
        summary: 'Register a passkey: its name and the browser’s answer to the registration options',
        body: PasskeyRegisterBodySchema,
        response: { 201: PasskeySchema, ...problems(400, 401, 409, 503) },
      },
    },
    async (request, reply) => {
      const claims = requireAuth(request);
      const passkey = await me.registerPasskey(claims.sub, request.body, sidOf(claims));
      return reply.code(201).send(passkey);
    },
  );

  r.get(
    '/me/passkeys/:passkeyId',
    {
      schema: {
        tags,
        summary: 'One of the caller’s passkeys',
        params: PasskeyParamsSchema,
        response: { 200: PasskeySchema, ...problems(400, 401, 404, 409, 503) },
      },
    },
    async (request) => me.passkey(requireAuth(request).sub, request.params.passkeyId),
  );

  r.patch(
    '/me/passkeys/:passkeyId',
    {
      schema: {
        tags,
        summary: 'Rename a passkey',
        params: PasskeyParamsSchema,
        body: PasskeyRenameBodySchema,
        response: { 200: PasskeySchema, ...problems(400, 401, 404, 409, 503) },
      },
    },
    async (request) =>
      me.renamePasskey(requireAuth(request).sub, request.params.passkeyId, request.body.name),
  );

  r.delete(
    '/me/passkeys/:passkeyId',
    {
      schema: {
        tags,
        summary: 'Remove a passkey',
        params: PasskeyParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const claims = requireAuth(request);
      await me.removePasskey(claims.sub, request.params.passkeyId, sidOf(claims));
      return reply.code(204).send(null);
    },
  );

  // Sign-in sessions at the embedded provider (decision 0074); 409 with an external issuer.

  r.get(
    '/me/sessions',
    {
      schema: {
        tags,
        summary: 'The caller’s sign-in sessions (browser, OS, first and last use), this one marked',
        response: { 200: SessionListSchema, ...problems(401, 409, 503) },
      },
    },
    async (request) => {
      const claims = requireAuth(request);
      return me.sessions(claims.sub, sidOf(claims));
    },
  );

  r.delete(
    '/me/sessions',
    {
      schema: {
        tags,
        summary: 'End every sign-in session of the caller but this one (`?others=true`)',
        querystring: EndSessionsQuerySchema,
        response: { 204: z.null(), ...problems(400, 401, 409, 503) },
      },
    },
    async (request, reply) => {
      const claims = requireAuth(request);
      await me.endOtherSessions(claims.sub, sidOf(claims));
      return reply.code(204).send(null);
    },
  );

  r.delete(
    '/me/sessions/:sessionId',
    {
      schema: {
        tags,
        summary: 'End one sign-in session of the caller',
        params: SessionParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      await me.endSession(requireAuth(request).sub, request.params.sessionId);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/me/request-verification',
    {
      schema: {
        tags,
        summary: 'Send a mail with an email-verification link',
        response: { 202: z.null(), ...problems(401, 409, 503) },
      },
    },
    async (request, reply) => {
      await me.requestVerification(requireAuth(request).sub);
      return reply.code(202).send(null);
    },
  );
}
