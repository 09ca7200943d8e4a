/**
 * The caller's second factor (decision 0072), `/api/me/second-factor…`: a TOTP authenticator
 * (RFC 6238: 6 digits, 30 s steps, SHA-1) and ten single-use recovery codes. Only the embedded
 * identity provider has them; with an external issuer every call answers 409 `accounts_external`.
 */
import { z } from 'zod';

/**
 * The step-up before a new sign-in factor is set up (decision 0078): `POST
 * /api/me/second-factor/totp` and `POST /api/me/passkeys/registration-options` take the account's
 * password, so a stolen session alone cannot add a factor of its own. Without it they answer 403
 * `step_up_required`; a wrong one 400 on `body.password`. The body may be left out entirely.
 */
export const StepUpBodySchema = z
  .object({ password: z.string().min(1, 'Enter your password.').max(1024).optional() })
  // A call without a body arrives as null.
  .nullish();
export type StepUpBody = z.infer<typeof StepUpBodySchema>;

/** Recovery codes handed out per confirmation. */
export const RECOVERY_CODE_COUNT = 10;

/** `GET /api/me/second-factor`: whether a confirmed TOTP guards the sign-in, and unused recovery codes. */
export const SecondFactorStatusSchema = z.object({
  totp: z.boolean(),
  recoveryCodesLeft: z.number().int().min(0),
});
export type SecondFactorStatus = z.infer<typeof SecondFactorStatusSchema>;

/**
 * `POST /api/me/second-factor/totp`: a new, unconfirmed secret (base32, for typing), its
 * `otpauth://` URI and that URI as a QR code (SVG markup) for an authenticator app to scan.
 */
export const TotpEnrolmentSchema = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  qrSvg: z.string(),
});
export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

const code = z.string().trim().min(1, 'Enter the code.').max(64);

/** `POST /api/me/second-factor/totp/confirm`: the authenticator's current 6-digit code. */
export const TotpConfirmBodySchema = z.object({ code });
export type TotpConfirmBody = z.infer<typeof TotpConfirmBodySchema>;

/**
 * Answer of a confirmation: the recovery codes (`xxxxx-xxxxx`, base32 letters and digits),
 * shown this once; the server keeps only their hashes.
 */
export const RecoveryCodesSchema = z.object({
  recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT),
});
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/** `DELETE /api/me/second-factor/totp`: the sign-in password and a TOTP or recovery code. */
export const TotpDisableBodySchema = z.object({
  password: z.string().min(1, 'Enter your password.').max(1024),
  code,
});
export type TotpDisableBody = z.infer<typeof TotpDisableBodySchema>;
