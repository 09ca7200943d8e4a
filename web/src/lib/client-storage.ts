/**
 * Client storage of spec §3: the chosen current company id and the API token with its expiry,
 * kept in localStorage so every tab of the app shares them; and, per company, the building the
 * member works in (the navigation's building switcher).
 *
 * Token rules of spec §9: a token is cached at most 24 hours and treated as expired 60 seconds
 * before its real expiry, so a call never leaves with a token that dies on the way.
 */

const COMPANY_KEY = 'heizplan.companyId';
const TOKEN_KEY = 'heizplan.apiToken';

/** Longest time a token is kept (ms), whatever its own lifetime (spec §9). */
export const TOKEN_CACHE_MS = 24 * 60 * 60 * 1000;
/** A cached token counts as expired this long before its expiry (ms, spec §9). */
export const TOKEN_EXPIRY_MARGIN_MS = 60 * 1000;

export interface StoredToken {
  value: string;
  /** Epoch ms (UTC) after which the token must not be used; already capped at 24 h. */
  expiresAt: number;
}

const companyListeners = new Set<() => void>();

export function getCurrentCompanyId(): string | null {
  return localStorage.getItem(COMPANY_KEY);
}

export function setCurrentCompanyId(companyId: string | null) {
  if (companyId === getCurrentCompanyId()) return;
  if (companyId) localStorage.setItem(COMPANY_KEY, companyId);
  else localStorage.removeItem(COMPANY_KEY);
  for (const listener of companyListeners) listener();
}

/**
 * Calls `listener` whenever the current company changes, in this tab or another one
 * (for `useSyncExternalStore`). @returns the unsubscribe function.
 */
export function subscribeCurrentCompany(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === COMPANY_KEY) listener();
  };
  companyListeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    companyListeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The current company id for a company-scoped call.
 * @throws Error when none is chosen (spec §8: "A missing company id … raises an error").
 */
export function requireCurrentCompanyId(): string {
  const id = getCurrentCompanyId();
  if (!id) throw new Error('No current company is chosen.');
  return id;
}

/**
 * Stores an access token. `expiresAtSeconds` is the token's own `exp` (epoch seconds, as OIDC
 * reports it); the stored expiry is the earlier of that and `now + 24 h`.
 */
export function storeToken(value: string, expiresAtSeconds: number | undefined, now = Date.now()) {
  const cap = now + TOKEN_CACHE_MS;
  const expiresAt = expiresAtSeconds ? Math.min(expiresAtSeconds * 1000, cap) : cap;
  localStorage.setItem(TOKEN_KEY, JSON.stringify({ value, expiresAt } satisfies StoredToken));
}

/** The cached token if it is still usable at `now` (60 s margin applied), else null. */
export function freshToken(now = Date.now()): string | null {
  const raw = localStorage.getItem(TOKEN_KEY);
  if (!raw) return null;
  try {
    const token = JSON.parse(raw) as StoredToken;
    if (typeof token.value !== 'string' || typeof token.expiresAt !== 'number') return null;
    return token.expiresAt - TOKEN_EXPIRY_MARGIN_MS > now ? token.value : null;
  } catch {
    return null;
  }
}

export function clearToken() {
  localStorage.removeItem(TOKEN_KEY);
}

const SIGN_IN_LANGUAGE_KEY = 'heizplan.signInLanguage';

/**
 * Remembers the `locale` claim of the ID token: the language of the pages the person registered
 * on (embedded provider) or their language at an external issuer. Setup preselects it.
 */
export function storeSignInLanguage(locale: unknown) {
  const base = typeof locale === 'string' ? locale.toLowerCase().split(/[-_]/)[0] : undefined;
  if (base === 'de' || base === 'en') localStorage.setItem(SIGN_IN_LANGUAGE_KEY, base);
}

/** The language remembered by `storeSignInLanguage`, or null. */
export function signInLanguage(): 'de' | 'en' | null {
  const stored = localStorage.getItem(SIGN_IN_LANGUAGE_KEY);
  return stored === 'de' || stored === 'en' ? stored : null;
}

const BUILDING_KEY = 'heizplan.building.';
const buildingListeners = new Set<() => void>();

/** The current building chosen for `companyId` (decision 0052), or null for all buildings. */
export function getCurrentBuildingId(companyId: string): string | null {
  return localStorage.getItem(`${BUILDING_KEY}${companyId}`);
}

/** Remembers the current building of `companyId`; null forgets it (all buildings). */
export function setCurrentBuildingId(companyId: string, buildingId: string | null) {
  if (buildingId === getCurrentBuildingId(companyId)) return;
  if (buildingId) localStorage.setItem(`${BUILDING_KEY}${companyId}`, buildingId);
  else localStorage.removeItem(`${BUILDING_KEY}${companyId}`);
  for (const listener of buildingListeners) listener();
}

/**
 * Calls `listener` whenever a current building changes, in this tab or another one
 * (for `useSyncExternalStore`). @returns the unsubscribe function.
 */
export function subscribeCurrentBuilding(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(BUILDING_KEY)) listener();
  };
  buildingListeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    buildingListeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
