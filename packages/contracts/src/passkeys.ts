/**
 * The caller's passkeys (decision 0074), `/api/me/passkeys…`: WebAuthn Level 2 public key
 * credentials that sign in without a password and stand in for the TOTP code as a second factor.
 * Only the embedded identity provider has them; with an external issuer every call answers 409
 * `accounts_external`. Registering takes two calls: the options for `navigator.credentials.create`
 * (their challenge is valid 5 minutes and once), then the browser's answer with a name.
 */
import { z } from 'zod';

/** Longest name of a passkey (characters, after trimming). */
export const PASSKEY_NAME_MAX = 64;

const name = z
  .string()
  .trim()
  .min(1, 'Enter a name for the passkey.')
  .max(PASSKEY_NAME_MAX, `At most ${PASSKEY_NAME_MAX} characters.`);

/** One passkey as the settings list it: no key material, only what the user can tell apart. */
export const PasskeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  /** The last sign-in with it; null until it is used. */
  last_used_at: z.iso.datetime({ offset: true }).nullable(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

/** `GET /api/me/passkeys`: the caller's passkeys, oldest first. */
export const PasskeyListSchema = z.object({ results: z.array(PasskeySchema) });
export type PasskeyList = z.infer<typeof PasskeyListSchema>;

/** `{passkeyId}` of `/api/me/passkeys/{passkeyId}`. */
export const PasskeyParamsSchema = z.object({ passkeyId: z.uuid() });

/**
 * `POST /api/me/passkeys/registration-options`: PublicKeyCredentialCreationOptionsJSON (WebAuthn
 * Level 3 §5.1.9) for the browser, with a base64url challenge; the other members pass through.
 */
export const PasskeyRegistrationOptionsSchema = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ id: z.string().optional(), name: z.string() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
});
export type PasskeyRegistrationOptions = z.infer<typeof PasskeyRegistrationOptionsSchema>;

/**
 * The browser's RegistrationResponseJSON (WebAuthn Level 3 §5.1): base64url fields; the server
 * checks everything in it (WebAuthn Level 2 §7.1), the schema only its shape.
 */
export const RegistrationResponseSchema = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: z.string().min(1).max(8192),
    attestationObject: z.string().min(1).max(65_536),
    transports: z.array(z.string().max(32)).max(16).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().optional(),
});

/** `POST /api/me/passkeys`: the name the user gives the passkey and the browser's answer. */
export const PasskeyRegisterBodySchema = z.object({ name, response: RegistrationResponseSchema });
export type PasskeyRegisterBody = z.infer<typeof PasskeyRegisterBodySchema>;

/** `PATCH /api/me/passkeys/{passkeyId}`: a new name; without one the passkey stays as it is. */
export const PasskeyRenameBodySchema = z.object({ name: name.optional() });
export type PasskeyRenameBody = z.infer<typeof PasskeyRenameBodySchema>;
