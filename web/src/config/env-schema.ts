/**
 * The browser's build-time settings (after bulletproof-react `config/env.ts`): an
 * explicit whitelist of `VITE_*` variables, parsed once with zod — at build time, by
 * `vite.config.ts`, which hands the browser the parsed values (`config/env.ts`); a bad value
 * fails the build naming the variable, and no schema code ships (decision 0045). All are
 * optional; the defaults are the spec's values, and the identity provider itself is found at run
 * time through `GET /api/public/auth-config`.
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `VITE_LOGIN_ERROR_PATH` | `/` | where a failed login return goes (spec §2) |
 * | `VITE_SILENT_LOGIN_TIMEOUT_S` | `60` | time-out of a silent login in the hidden frame, seconds (spec §9) |
 * | `VITE_USE_REFRESH_TOKENS` | `true` | renew tokens with the refresh token when one is stored |
 * | `VITE_USE_REFRESH_TOKENS_FALLBACK` | `true` | without a refresh token, renew through the hidden frame (spec §8) |
 */
import { z } from 'zod';

const flag = z
  .enum(['true', 'false'])
  .default('true')
  .transform((v) => v === 'true');

const EnvSchema = z.object({
  VITE_LOGIN_ERROR_PATH: z.string().startsWith('/').default('/'),
  VITE_SILENT_LOGIN_TIMEOUT_S: z.coerce.number().positive().default(60),
  VITE_USE_REFRESH_TOKENS: flag,
  VITE_USE_REFRESH_TOKENS_FALLBACK: flag,
});

export interface WebEnv {
  loginErrorPath: string;
  silentLoginTimeoutMs: number;
  useRefreshTokens: boolean;
  useRefreshTokensFallback: boolean;
}

/** @throws ZodError naming the bad variables. */
export function parseEnv(source: Record<string, unknown>): WebEnv {
  const env = EnvSchema.parse(source);
  return {
    loginErrorPath: env.VITE_LOGIN_ERROR_PATH,
    silentLoginTimeoutMs: env.VITE_SILENT_LOGIN_TIMEOUT_S * 1000,
    useRefreshTokens: env.VITE_USE_REFRESH_TOKENS,
    useRefreshTokensFallback: env.VITE_USE_REFRESH_TOKENS_FALLBACK,
  };
}
