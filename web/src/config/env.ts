/**
 * The browser's settings, parsed from the `VITE_*` variables at build time (config/env-schema.ts;
 * `vite.config.ts` and the test set-up define `__HEIZPLAN_ENV__`).
 */
import type { WebEnv } from './env-schema.ts';

declare const __HEIZPLAN_ENV__: WebEnv;

export const env: WebEnv = __HEIZPLAN_ENV__;
