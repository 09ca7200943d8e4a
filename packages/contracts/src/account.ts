/**
 * Account, company, licence, invite and team shapes of spec §3/§7. JSON field names follow the
 * spec (snake_case). Server routes
 * validate with these schemas and the web client imports the same types.
 */
import { z } from 'zod';
import { PageQuerySchema, pageOf } from './problem.ts';

/**
 * Trimmed text a person typed (names): no control characters, which PostgreSQL `text`
 * cannot hold (NUL) and no screen shows sensibly.
 */
const typedText = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} must not be empty.`)
    .max(200)
    .regex(/^\P{Cc}*$/u, `${label} must not contain control characters.`);

/** Languages the UI and the hosted login pages ship in (spec §2 setup step 1). */
export const LanguageSchema = z.enum(['de', 'en']);
export type Language = z.infer<typeof LanguageSchema>;

/** Role of a member in a company (spec §6); invites default to `heating`. */
export const RoleSchema = z.enum(['admin', 'heating', 'ems']);
export type Role = z.infer<typeof RoleSchema>;

/** ISO 8601 UTC timestamp as sent on the wire. */
const Timestamp = z.iso.datetime({ offset: true });

/**
 * Something that happened to the user's account while they were away, shown until they dismiss
 * it (`DELETE /api/me/notices/{id}`): `removed_from_company` names the company another member
 * removed them from.
 */
export const UserNoticeSchema = z.object({
  id: z.uuid(),
  kind: z.enum(['removed_from_company']),
  company_name: z.string(),
  created_at: Timestamp,
});
export type UserNotice = z.infer<typeof UserNoticeSchema>;

/** `DELETE /api/me/notices/{id}`. */
export const NoticeParamsSchema = z.object({ id: z.uuid() });

/**
 * Spec §3 "User"; `lang` is null until the user picks one in setup step 1. `notices` (beyond
 * the spec) are the user's undismissed notices, oldest first.
 */
export const UserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  lang: LanguageSchema.nullable(),
  created_at: Timestamp,
  last_login: Timestamp.nullable(),
  company_ids: z.array(z.string()),
  notices: z.array(UserNoticeSchema),
  /**
   * True while a company of the user requires a second factor the user has not set up
   * (decision 0078): its calls answer 403 `second_factor_required` until one is.
   */
  second_factor_required: z.boolean(),
});
export type User = z.infer<typeof UserSchema>;

/** `PUT /api/me/` body; both fields trimmed before validation and saving (spec §5). */
export const UpdateMeBodySchema = z.object({
  name: typedText('Name'),
  email: z.string().trim().pipe(z.email('Email must be a valid email address.')),
});
export type UpdateMeBody = z.infer<typeof UpdateMeBodySchema>;

/** `POST /api/me/language?lang=de|en`. */
export const LanguageQuerySchema = z.object({ lang: LanguageSchema });
export type LanguageQuery = z.infer<typeof LanguageQuerySchema>;

/** Minimum length of a new password (ACCOUNT_API.md). */
export const PASSWORD_MIN_LENGTH = 10;

/**
 * `PUT /api/me/password` body: the current password (checked, failures count towards the
 * sign-in lock) and the new one; never accepted in the query string (logs).
 */
export const PasswordBodySchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password.').max(1024),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Password must have at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(1024),
});
export type PasswordBody = z.infer<typeof PasswordBodySchema>;

/**
 * Agreement flags of a company for the current versions: each is true only when the
 * accepted version equals the current one (a bumped version sends members to setup step 3).
 */
export const CompanyConfSchema = z.object({
  avv_accepted: z.boolean(),
  license_accepted: z.boolean(),
  privacy_accepted: z.boolean(),
});
export type CompanyConf = z.infer<typeof CompanyConfSchema>;

/** Spec §3 "Company"; temperatures in °C; `role` is the caller's role in it. */
/**
 * Heat sources a company's buildings may run on (spec §3 "energy media setting"), stored for
 * energy reporting.
 */
export const ENERGY_MEDIA = [
  'gas',
  'oil',
  'district_heating',
  'heat_pump',
  'electricity',
  'wood_pellets',
  'other',
] as const;
export const EnergyMediaSchema = z.enum(ENERGY_MEDIA);
export type EnergyMedia = z.infer<typeof EnergyMediaSchema>;

/** Optimum start and stop modes of a company (decision 0056). */
export const OptimumStartModeSchema = z.enum(['off', 'shadow', 'on']);
export type OptimumStartMode = z.infer<typeof OptimumStartModeSchema>;

/**
 * Who in a company must sign in with a second factor (TOTP or passkey, decision 0078): nobody,
 * the admins, or every member.
 */
export const SecondFactorPolicySchema = z.enum(['none', 'admins', 'all']);
export type SecondFactorPolicy = z.infer<typeof SecondFactorPolicySchema>;

/**
 * Days a browser may skip the code step once its user chose "trust this browser" (decision 0078):
 * 0 = off, or 30.
 */
export const REMEMBER_DEVICE_DAYS = [0, 30] as const;
export const RememberDeviceDaysSchema = z.union([z.literal(0), z.literal(30)]);
export type RememberDeviceDays = z.infer<typeof RememberDeviceDaysSchema>;

export const CompanySchema = z.object({
  id: z.string(),
  name: z.string(),
  conf: CompanyConfSchema,
  min_temperature: z.number(),
  max_temperature: z.number(),
  time_zone: z.string(),
  /** Hours an occupant's change on the public page holds at most; null = until the next switch point. */
  occupant_change_max_hours: z.number().int().nullable(),
  /** °C an occupant may choose at most in a room without wall-control limits of its own; default 24. */
  occupant_max_temperature: z.number(),
  /**
   * K an occupant may go above or below the plan's setpoint in such a room; null = the whole range
   * up to `occupant_max_temperature`; default 2.
   */
  occupant_band: z.number().nullable(),
  /** Whether invites name a role (spec §6); when false they carry none and `default_invite_role` applies. */
  invite_role_choice: z.boolean(),
  /** Role preselected for invites and given to members of invites without a role (spec §6). */
  default_invite_role: RoleSchema,
  /** Heat source of the company's buildings; null until chosen. */
  energy_media: EnergyMediaSchema.nullable(),
  /** °C a paused unit, a closure in frost mode and a date without a plan keep; default 8. */
  frost_protection: z.number(),
  /** °C a closure in economy mode keeps (decision 0051); default 16. */
  economy_temperature: z.number(),
  /** °C a closure in standby mode keeps; default 18. */
  standby_temperature: z.number(),
  /** Optimum start and stop (decision 0056): off, shadow (learn and show, do not act) or on; default shadow. */
  optimum_start: OptimumStartModeSchema,
  /** Longest pre-heat in minutes; default 180. */
  optimum_max_lead_minutes: z.number().int(),
  /** Who must have a second factor to use the company (decision 0078); default `none`. */
  second_factor_required: SecondFactorPolicySchema,
  /** Days a trusted browser skips the code step (decision 0078); 0 = off, the default. */
  remember_device_days: RememberDeviceDaysSchema,
  role: RoleSchema,
});
export type Company = z.infer<typeof CompanySchema>;

/** One row of `GET /api/companies/`. */
export const CompanySummarySchema = z.object({ id: z.string(), name: z.string() });
export type CompanySummary = z.infer<typeof CompanySummarySchema>;

export const CompanyPageSchema = pageOf(CompanySummarySchema);
export type CompanyPage = z.infer<typeof CompanyPageSchema>;

/**
 * `GET /api/companies/?page&size&pagination`; `pagination=false` returns every company
 * of the caller in one page (size = count).
 */
export const CompanyListQuerySchema = PageQuerySchema.extend({
  pagination: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
export type CompanyListQuery = z.infer<typeof CompanyListQuerySchema>;

/** True when `zone` is an IANA time zone the runtime knows, e.g. `Europe/Berlin`. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Bounds of the longest pre-heat a company may set, minutes (Guideline 36 clamps to 15 min–3 h; up to 6 h for heavy buildings). */
export const OPTIMUM_MAX_LEAD_LIMITS = { min: 15, max: 360 } as const;

/** Longest limit a company may set on occupant changes (one week). */
export const OCCUPANT_CHANGE_MAX_HOURS = 168;

/** Bounds of the band (K) around the plan's setpoint an occupant may move in (decision 0066). */
export const OCCUPANT_BAND_LIMITS = { min: 0.5, max: 10 } as const;

/** Company temperatures allowed at all, in °C (frost protection up to a hot room). */
export const COMPANY_TEMPERATURE_LIMITS = { min: 0, max: 40 } as const;

const CompanyTemperature = z.number().min(COMPANY_TEMPERATURE_LIMITS.min).max(COMPANY_TEMPERATURE_LIMITS.max);

/**
 * `PATCH /api/companies/{id}/` body, every field optional; min < max is checked against the
 * stored value by the server when only one bound is sent.
 */
export const CompanyPatchBodySchema = z
  .object({
    name: typedText('Company name'),
    min_temperature: CompanyTemperature,
    max_temperature: CompanyTemperature,
    time_zone: z.string().refine(isTimeZone, 'Unknown IANA time zone.'),
    occupant_change_max_hours: z.number().int().min(1).max(OCCUPANT_CHANGE_MAX_HOURS).nullable(),
    occupant_max_temperature: CompanyTemperature,
    occupant_band: z.number().min(OCCUPANT_BAND_LIMITS.min).max(OCCUPANT_BAND_LIMITS.max).nullable(),
    invite_role_choice: z.boolean(),
    default_invite_role: RoleSchema,
    energy_media: EnergyMediaSchema.nullable(),
    frost_protection: CompanyTemperature,
    economy_temperature: CompanyTemperature,
    standby_temperature: CompanyTemperature,
    optimum_start: OptimumStartModeSchema,
    optimum_max_lead_minutes: z
      .number()
      .int()
      .min(OPTIMUM_MAX_LEAD_LIMITS.min)
      .max(OPTIMUM_MAX_LEAD_LIMITS.max),
    second_factor_required: SecondFactorPolicySchema,
    remember_device_days: RememberDeviceDaysSchema,
  })
  .partial()
  .refine(
    (b) =>
      b.min_temperature === undefined ||
      b.max_temperature === undefined ||
      b.min_temperature < b.max_temperature,
    { message: 'The minimum temperature must be below the maximum temperature.', path: ['min_temperature'] },
  );
export type CompanyPatchBody = z.infer<typeof CompanyPatchBodySchema>;

/** `POST /api/companies/setup?company_name=`; blank names are rejected after trimming. */
export const CompanySetupQuerySchema = z.object({
  company_name: typedText('Company name'),
});
export type CompanySetupQuery = z.infer<typeof CompanySetupQuerySchema>;

/** `{id}` path parameter of company-scoped calls. */
export const CompanyParamsSchema = z.object({ id: z.string() });

/** Spec §3 "Current licence versions", from server configuration. */
export const LicenseCurrentSchema = z.object({
  avv_version: z.number().int(),
  license_version: z.number().int(),
  privacy_version: z.number().int(),
});
export type LicenseCurrent = z.infer<typeof LicenseCurrentSchema>;

/** Spec §3 "Company licence record"; null when never accepted. */
export const LicenseRecordSchema = z.object({
  avv_accepted_version: z.number().int().nullable(),
  license_accepted_version: z.number().int().nullable(),
  privacy_accepted_version: z.number().int().nullable(),
});
export type LicenseRecord = z.infer<typeof LicenseRecordSchema>;

/**
 * Spec §3 "Invite"; `id` is the invite code (random, ≥ 128 bits, URL-safe); `role` is null when
 * the company's role choice is off (the member gets the company's default role).
 */
export const InviteSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  company: z.string(),
  role: RoleSchema.nullable(),
  created_at: Timestamp,
});
export type Invite = z.infer<typeof InviteSchema>;

/** `GET|POST /api/invite/?company_id=`. */
export const InviteQuerySchema = z.object({ company_id: z.string() });
export type InviteQuery = z.infer<typeof InviteQuerySchema>;

/**
 * `POST /api/invite/` body; an empty email counts as none. Without `role` the company's default
 * role applies; a role is refused while the company's role choice is off.
 */
export const CreateInviteBodySchema = z.object({
  email: z
    .string()
    .trim()
    .pipe(z.union([z.literal(''), z.email('Email must be a valid email address.')]))
    .transform((v) => (v === '' ? undefined : v))
    .optional(),
  role: RoleSchema.optional(),
});
export type CreateInviteBody = z.input<typeof CreateInviteBodySchema>;

/** `DELETE /api/invite/{id}`. */
export const InviteParamsSchema = z.object({ id: z.string() });

/** `POST /api/invite/setup/{invite_code}`. */
export const InviteSetupParamsSchema = z.object({ invite_code: z.string() });

/**
 * A member's second factors (decision 0078): whether a confirmed TOTP guards their sign-in and
 * how many passkeys they have. Shown to admins on the team screen.
 */
export const MemberFactorsSchema = z.object({
  totp: z.boolean(),
  passkeys: z.number().int().nonnegative(),
});
export type MemberFactors = z.infer<typeof MemberFactorsSchema>;

/**
 * Spec §3 "Team member". `factors` comes with the team list (admins only); a single member's
 * answer leaves it out.
 */
export const MemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: RoleSchema,
  factors: MemberFactorsSchema.optional(),
});
export type Member = z.infer<typeof MemberSchema>;

/** `POST /api/companies/{id}/members/{email}` (invite that email). */
export const MemberEmailParamsSchema = z.object({
  id: z.string(),
  email: z.string().trim().pipe(z.email('Email must be a valid email address.')),
});

/** `DELETE /api/companies/{id}/members/{sub}`, `GET /api/companies/{id}/user/{sub}`. */
export const MemberParamsSchema = z.object({
  id: z.string(),
  sub: z.string().regex(/^\P{Cc}+$/u, 'Invalid user id.'),
});

/**
 * `PATCH /api/companies/{id}/members/{sub}` body: the member's new role (admins only); an empty
 * patch changes nothing (decision 0030).
 */
export const MemberRoleBodySchema = z.object({ role: RoleSchema.optional() });
export type MemberRoleBody = z.infer<typeof MemberRoleBodySchema>;
