/**
 * The one API client of the web app (after bulletproof-react `lib/api-client.ts`).
 *
 * - Every call goes to `/api<path>` with `Authorization: Bearer <token>`; the token comes from
 *   the auth session registered with `configureApiAuth` (the auth feature renews it silently).
 * - Failing calls throw `ApiError`, built from the RFC 9457 problem+json body: `status`,
 *   `detail` (the server's English sentence, for logs), `code`/`params` (translated for the
 *   user by `lib/problem-message.ts`) and field `errors`.
 * - A 401 means the session is gone: the registered `onUnauthorized` starts a new login.
 * - Company-scoped paths use the current company id from client storage (`companyPath`).
 * - Answers are typed by the contracts but not parsed again: the server's serializer already
 *   checks every response against the same zod schema, and leaving zod out of the calls keeps it
 *   out of the first load (decision 0045).
 */
import type { Problem } from '@heizplan/contracts/problem';
import { requireCurrentCompanyId } from './client-storage.ts';

/** Values filling a problem code's translation. */
export type ProblemParams = Record<string, string | number>;

export interface FieldError {
  field: string;
  message: string;
  code?: string;
  params?: ProblemParams;
}

/**
 * A failed API call. `detail` is the server's English explanation, `code` and `params` the
 * machine-readable reason a screen translates, `errors` the per-field problems.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: FieldError[];
  readonly code: string | undefined;
  readonly params: ProblemParams;

  constructor(
    status: number,
    title: string,
    detail?: string,
    errors: FieldError[] = [],
    reason: { code?: string; params?: ProblemParams } = {},
  ) {
    super(detail ?? title);
    this.name = 'ApiError';
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.errors = errors;
    this.code = reason.code;
    this.params = reason.params ?? {};
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

export interface RequestOptions {
  /**
   * Query parameters; `undefined`/`null` values are left out. Typed as `object` so callers can
   * pass their own parameter interfaces, whose values must be `QueryValue`s.
   */
  query?: object;
  body?: unknown;
  /** A file sent as the raw body with its content type (an import), instead of a JSON `body`. */
  file?: { data: Blob; type: string };
  signal?: AbortSignal;
  /** Public endpoints (`/public/...`) are called without a token. Default true. */
  authenticated?: boolean;
}

function buildUrl(path: string, query?: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}) as Array<[string, QueryValue]>) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return `/api${path}${search ? `?${search}` : ''}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** True for an RFC 9457 body as `ProblemSchema` describes it: the fields the app reads, of their types. */
function isProblem(body: unknown): body is Problem {
  if (!isRecord(body) || typeof body.title !== 'string' || typeof body.status !== 'number') return false;
  const optional = (value: unknown, type: 'string' | 'object') =>
    value === undefined || (type === 'object' ? isRecord(value) : typeof value === type);
  const fieldOk = (error: unknown) =>
    isRecord(error) &&
    typeof error.field === 'string' &&
    typeof error.message === 'string' &&
    optional(error.code, 'string') &&
    optional(error.params, 'object');
  return (
    optional(body.detail, 'string') &&
    optional(body.code, 'string') &&
    optional(body.params, 'object') &&
    (body.errors === undefined || (Array.isArray(body.errors) && body.errors.every(fieldOk)))
  );
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON (e.g. a proxy's HTML error page): status and status text must do
  }
  if (isProblem(body)) {
    const { title, detail, errors, code, params } = body;
    return new ApiError(response.status, title, detail, errors, { code, params });
  }
  return new ApiError(response.status, response.statusText || `HTTP ${response.status}`);
}

/**
 * Sends `method /api<path>` with the bearer token and returns the successful response.
 * @throws ApiError for any non-2xx answer, and with status 401 when no token is available.
 */
async function send(method: string, path: string, options: RequestOptions, accept: string) {
  const headers: Record<string, string> = { accept };
  if (options.authenticated !== false) {
    const token = await auth.getAccessToken();
    if (!token) {
      auth.onUnauthorized();
      throw new ApiError(401, 'Unauthorized', 'Not signed in.');
    }
    headers.authorization = `Bearer ${token}`;
  }
  let body: string | Blob | undefined;
  if (options.file) {
    headers['content-type'] = options.file.type;
    body = options.file.data;
  } else if (options.body !== undefined) {
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
  return response;
}

/**
 * Calls `method /api<path>` and returns the HTTP status with the parsed JSON body (undefined
 * for an empty body, as 202/204 answers have). Callers that only need the body use `apiRequest`.
 * @throws ApiError for any non-2xx answer, and with status 401 when no token is available.
 */
export async function apiFetch<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<{ status: number; data: T }> {
  const response = await send(method, path, options, 'application/json');
  const { status } = response;
  // 202/204 answers carry no body.
  const text = await response.text();
  if (!text) return { status, data: undefined as T };
  return { status, data: JSON.parse(text) as T };
}

/**
 * The successful response of `method /api<path>` asking for `accept`, its body unread: for an
 * answer read as it arrives (an import's NDJSON progress). @throws ApiError
 */
export async function apiResponse(
  method: string,
  path: string,
  options: RequestOptions,
  accept: string,
): Promise<Response> {
  return send(method, path, options, accept);
}

/** `GET /api<path>` of a file (e.g. an invoice PDF) as a Blob. @throws ApiError */
export async function apiBlob(path: string): Promise<Blob> {
  return (await send('GET', path, {}, '*/*')).blob();
}

/** `apiFetch` without the status: the parsed body of a successful call. @throws ApiError */
export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiFetch<T>(method, path, options)).data;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, options?: RequestOptions) => apiRequest<T>('POST', path, options),
  put: <T>(path: string, options?: RequestOptions) => apiRequest<T>('PUT', path, options),
  patch: <T>(path: string, options?: RequestOptions) => apiRequest<T>('PATCH', path, options),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};

/**
 * `/companies/<current company id><rest>` for company-scoped calls (docs/architecture.md).
 * @throws Error when no current company is chosen (spec §8).
 */
export function companyPath(rest: string): string {
  return `/companies/${encodeURIComponent(requireCurrentCompanyId())}${rest}`;
}
