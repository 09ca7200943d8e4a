/**
 * Records the audit log (decision 0059): one `onSend` hook sees every answer, and writes an
 * entry for each successful change (`POST`, `PUT`, `PATCH`, `DELETE` answered < 400) of a
 * company's data — routes under `/api/companies/{id}` and the invites (`?company_id=`). The actor
 * is the caller (a member, or an API token's principal), the object the route's last parameter,
 * the fields the request body's — passwords, keys, tokens and secrets masked, only the names of a
 * body over 4 kB — and, for a `PATCH` or `PUT` of an object the API can read, what those fields
 * held before (read as the caller would read it, just before the handler runs). Before the answer leaves (one insert), so whoever got the answer finds the
 * entry; a failure to write is logged, never answered.
 */
import { AUDIT_MASK } from '@heizplan/contracts/audit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_TOKEN_PRINCIPAL } from '../../auth/api-token-auth.ts';
import { isUuid } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { internalReadHeaders, isInternalRead } from '../../http/internal-read.ts';
import { insertAuditEntry } from './audit.repository.ts';

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_FIELDS_BYTES = 4096;
/** Field names whose values are never written down. */
const SECRET = /pass(word)?|secret|token|app_?key|api_?key|iban|signature/i;
const COMPANY_ROUTE = /^\/api\/companies\/\{(companyId|id)\}\/?(?<resource>[\w-]+)?/;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false`: the hook writes no entry for the route — it changes nothing (an import's dry run),
     * or its service writes its own entry in the change's transaction (an import's commit, which
     * may answer before its rows are written).
     */
    audit?: false;
  }
}

/** The company a request changes, or null when it changes none. */
function companyOf(request: FastifyRequest, route: string): string | null {
  const params = (request.params ?? {}) as Record<string, string>;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const match = route.match(COMPANY_ROUTE);
  const id = match ? params[match[1] as string] : route.startsWith('/api/invite') ? query.company_id : null;
  return typeof id === 'string' && isUuid(id) ? id : null;
}

/** The body's fields, secrets masked; a body too large keeps only its field names. */
export function auditFields(body: unknown): Record<string, unknown> {
  // A raw body (an uploaded file) has no fields.
  if (body === null || typeof body !== 'object' || Array.isArray(body) || ArrayBuffer.isView(body)) return {};
  const masked = Object.fromEntries(
    Object.entries(body as Record<string, unknown>).map(([key, value]) => [
      key,
      SECRET.test(key) && value !== null ? AUDIT_MASK : value,
    ]),
  );
  if (JSON.stringify(masked).length <= MAX_FIELDS_BYTES) return masked;
  return Object.fromEntries(Object.keys(masked).map((key) => [key, '…']));
}

/**
 * The values the body's fields hold now, read as the caller would read the object (`GET` of the
 * same path, with the caller's credentials); undefined when the change has no such read or the
 * read fails. Only fields the answer has; secrets masked as in `fields`.
 */
async function valuesBefore(request: FastifyRequest): Promise<Record<string, unknown> | undefined> {
  const url = request.routeOptions.url;
  const body = request.body;
  if (!url || body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  if (!request.server.hasRoute({ method: 'GET', url })) return undefined;
  const headers: Record<string, string> = internalReadHeaders();
  for (const name of ['authorization', 'cookie', 'accept-language'] as const) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const read = await request.server.inject({ method: 'GET', url: request.url, headers });
  if (read.statusCode !== 200) return undefined;
  let object: unknown;
  try {
    object = read.json();
  } catch {
    return undefined;
  }
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return undefined;
  const now = object as Record<string, unknown>;
  const known = Object.keys(body).filter((key) => key in now);
  // The read's shape differs from the change's (a wrapper object): nothing to compare.
  if (known.length === 0) return undefined;
  return auditFields(Object.fromEntries(known.map((key) => [key, now[key]])));
}

export function installAuditRecorder(app: FastifyInstance, db: Db) {
  const before = new WeakMap<FastifyRequest, Record<string, unknown>>();

  // After authentication and validation, before the handler changes anything.
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'PATCH' && request.method !== 'PUT') return;
    if (!request.auth || request.routeOptions.config.audit === false || isInternalRead(request)) return;
    const route = request.routeOptions.url?.replace(/:(\w+)/g, '{$1}');
    if (!route?.startsWith('/api/') || !companyOf(request, route)) return;
    try {
      const values = await valuesBefore(request);
      if (values) before.set(request, values);
    } catch (err) {
      // Without the old values the entry still says what was set.
      request.log.warn({ err, route }, 'audit: values before the change not read');
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    await record(request, reply.statusCode);
    return payload;
  });

  async function record(request: FastifyRequest, status: number) {
    if (!CHANGES.has(request.method) || status >= 400 || !request.auth) return;
    if (request.routeOptions.config.audit === false) return;
    // As the OpenAPI document writes it: `/api/companies/{companyId}/units/{unitId}`.
    const route = request.routeOptions.url?.replace(/:(\w+)/g, '{$1}');
    if (!route?.startsWith('/api/')) return;
    const companyId = companyOf(request, route);
    if (!companyId) return;
    const fields = auditFields(request.body);
    // An empty PATCH (or PUT) sets nothing: no change to log (the API answers it unchanged).
    if ((request.method === 'PATCH' || request.method === 'PUT') && Object.keys(fields).length === 0) return;
    const params = Object.entries((request.params ?? {}) as Record<string, string>).filter(
      ([name]) => name !== 'companyId' && name !== 'id',
    );
    const resource =
      route.match(COMPANY_ROUTE)?.groups?.resource ??
      (route.startsWith('/api/invite') ? 'invites' : 'company');
    const { sub, name, email } = request.auth;
    try {
      await insertAuditEntry(db, {
        companyId,
        actorId: sub,
        fallbackName: name || email || sub,
        actorKind: sub.startsWith(API_TOKEN_PRINCIPAL) ? 'token' : 'member',
        method: request.method,
        route,
        resource,
        resourceId: params.at(-1)?.[1] ?? null,
        fields,
        previous: before.get(request) ?? null,
        status,
      });
    } catch (err) {
      // The company itself was deleted by this very request: nothing left to log it in.
      request.log.warn({ err, route }, 'audit entry not written');
    }
  }
}
