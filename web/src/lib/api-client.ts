/**
 * The one API client of the web app (STYLE.md, after bulletproof-react `lib/api-client.ts`).
 *
 * - Every call goes to `/api<path>` with `Authorization: Bearer <token>`; the token comes from
 *   the auth session registered with `configureApiAuth` (the auth feature renews it silently).
 * - Failing calls throw `ApiError`, built from the RFC 9457 problem+json body: `status`,
 *   `detail` (the server's sentence, safe to show) and field `errors`.
 * - A 401 means the session is gone: the registered `onUnauthorized` starts a new login.
 * - Company-scoped paths use the current company id from client storage (`companyPath`).
 */
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { ZodType } from 'zod';
import { requireCurrentCompanyId } from './client-storage.ts';

export interface FieldError {
  field: string;
  message: string;
}

/** A failed API call. `detail` is the server's explanation, `errors` the per-field problems. */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: FieldError[];

  constructor(status: number, title: string, detail?: string, errors: FieldError[] = []) {
    super(detail ?? title);
    this.name = 'ApiError';
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.errors = errors;
  }

  /** The message the server gave for one field (e.g. `name`), if any. */
  fieldError(field: string): string | undefined {
    return this.errors.find((e) => e.field === field)?.message;
  }
}

export interface ApiAuth {
  /** A usable access token (renewed silently when needed), or null when nobody is signed in. */
  getAccessToken(): Promise<string | null>;
  /** The API answered 401 or no token exists: start a new login. */
  onUnauthorized(): void;
}

let auth: ApiAuth = {
  getAccessToken: async () => null,
  onUnauthorized: () => {},
};

/** Registers the auth session the client takes tokens from (done once at start-up). */
export function configureApiAuth(next: ApiAuth) {
  auth = next;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<T> {
  /**
   * Query parameters; `undefined`/`null` values are left out. Typed as `object` so callers can
   * pass their own parameter interfaces, whose values must be `QueryValue`s.
   */
  query?: object;
  body?: unknown;
  signal?: AbortSignal;
  /** Public endpoints (`/public/...`) are called without a token. Default true. */
  authenticated?: boolean;
  /** Parses the JSON response; without it the body is returned as is. */
  schema?: ZodType<T>;
}

function buildUrl(path: string, query?: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}) as Array<[string, QueryValue]>) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return `/api${path}${search ? `?${search}` : ''}`;
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON (e.g. a proxy's HTML error page): status and status text must do
  }
  const problem = ProblemSchema.safeParse(body);
  if (problem.success) {
    const { title, detail, errors } = problem.data;
    return new ApiError(response.status, title, detail, errors);
  }
  return new ApiError(response.status, response.statusText || `HTTP ${response.status}`);
}

/**
 * Calls `method /api<path>` and returns the HTTP status with the parsed JSON body (undefined
 * for an empty body, as 202/204 answers have). Callers that only need the body use `apiRequest`.
 * @throws ApiError for any non-2xx answer, and with status 401 when no token is available.
 */
export async function apiFetch<T>(
  method: string,
  path: string,
  options: RequestOptions<T> = {},
): Promise<{ status: number; data: T }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.authenticated !== false) {
    const token = await auth.getAccessToken();
    if (!token) {
      auth.onUnauthorized();
      throw new ApiError(401, 'Unauthorized', 'Not signed in.');
    }
    headers.authorization = `Bearer ${token}`;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(buildUrl(path, options.query), {
    method,
    headers,
    body,
    signal: options.signal,
  });
  if (!response.ok) {
    if (response.status === 401 && options.authenticated !== false) auth.onUnauthorized();
    throw await toApiError(response);
  }
  const { status } = response;
  // 202/204 answers carry no body.
  const text = await response.text();
  if (!text) return { status, data: undefined as T };
  const json: unknown = JSON.parse(text);
  return { status, data: options.schema ? options.schema.parse(json) : (json as T) };
}

/** `apiFetch` without the status: the parsed body of a successful call. @throws ApiError */
export async function apiRequest<T>(
  method: string,
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  return (await apiFetch(method, path, options)).data;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions<T>) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, options?: RequestOptions<T>) => apiRequest<T>('POST', path, options),
  put: <T>(path: string, options?: RequestOptions<T>) => apiRequest<T>('PUT', path, options),
  patch: <T>(path: string, options?: RequestOptions<T>) => apiRequest<T>('PATCH', path, options),
  delete: <T>(path: string, options?: RequestOptions<T>) => apiRequest<T>('DELETE', path, options),
};

/**
 * `/companies/<current company id><rest>` for company-scoped calls (ARCHITECTURE.md §6).
 * @throws Error when no current company is chosen (spec §8).
 */
export function companyPath(rest: string): string {
  return `/companies/${encodeURIComponent(requireCurrentCompanyId())}${rest}`;
}
