/**
 * Typed HTTP errors and the handlers that turn every error into RFC 9457 problem+json
 * (docs/architecture.md): services throw these; 5xx details are hidden and logged with the request
 * id, never sent to the client. The framework's own client errors (bad JSON, body too large, bad
 * URL, too long a path parameter, oversized headers answered at the socket) get the status phrase
 * as title and a fixed detail: their messages may echo the request (decision 0030).
 */

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { hasZodFastifySchemaValidationErrors } from '@fastify/type-provider-zod';
import { PROBLEM_CODES, type ProblemCode, type ProblemParams } from '@heizplan/contracts/problem-codes';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { noErrorReporter, type ServerErrorReporter } from './error-reporting.ts';

/** A machine-readable reason the web translates; `detail` stays its English wording. */
export interface ProblemReason {
  code: ProblemCode;
  params?: ProblemParams;
}

export interface FieldError extends Partial<ProblemReason> {
  /** Dotted path of the offending field, e.g. `end` or `switchPoints.2.hour`. */
  field: string;
  message: string;
}

export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly title: string,
    public readonly detail?: string,
    public readonly errors?: FieldError[],
    public readonly reason?: ProblemReason,
    /** Response headers the problem needs, e.g. `retry-after` of a 429. */
    public readonly headers?: Record<string, string>,
  ) {
    super(detail ?? title);
    this.name = 'HttpError';
  }
}

export const badRequest = (detail: string, errors?: FieldError[], reason?: ProblemReason) =>
  new HttpError(400, 'Bad Request', detail, errors, reason);
export const unauthorized = (detail = 'A valid bearer token is required.') =>
  new HttpError(401, 'Unauthorized', detail);
export const forbidden = (detail: string, reason?: ProblemReason) =>
  new HttpError(403, 'Forbidden', detail, undefined, reason);
/** 404 is also the answer for another company's ids: no existence oracle (docs/architecture.md). */
export const notFound = (detail = 'Not found.', reason?: ProblemReason) =>
  new HttpError(404, 'Not Found', detail, undefined, reason);
export const conflict = (detail: string, reason?: ProblemReason) =>
  new HttpError(409, 'Conflict', detail, undefined, reason);

const PROBLEM = 'application/problem+json; charset=utf-8';

/** Details of the framework's client errors by Fastify error code, then by status. */
const FRAMEWORK_DETAILS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty although its content type is JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
  FST_ERR_BAD_URL: 'The request path is not a valid URL.',
};
const STATUS_DETAILS: Record<number, string> = {
  400: 'The request is malformed.',
  404: 'There is no route for this method and path.',
  408: 'The request took too long to arrive.',
  413: 'The request body is larger than this server accepts.',
  414: 'A segment of the request path is too long.',
  415: 'This route does not accept a body of this content type.',
  429: 'Too many requests. Try again after the number of seconds in Retry-After.',
  431: 'The request headers (with the query string) are larger than this server accepts.',
};

/** Status phrase and fixed detail of a client error the framework raised; never its message. */
function frameworkProblem(status: number, code?: string) {
  return {
    title: STATUS_CODES[status] ?? 'Client Error',
    detail: (code && FRAMEWORK_DETAILS[code]) ?? STATUS_DETAILS[status] ?? 'The request was refused.',
  };
}

/** Whole seconds from `now` until `until`, at least 1: the value of a Retry-After header. */
export const retryAfterSeconds = (until: Date, now = new Date()) =>
  Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

/** 429 with `Retry-After` (RFC 9110 §10.2.3) until `until`. */
export const tooManyRequests = (until: Date, detail = STATUS_DETAILS[429]) =>
  new HttpError(429, 'Too Many Requests', detail, undefined, undefined, {
    'retry-after': String(retryAfterSeconds(until)),
  });

export function sendProblem(
  reply: FastifyReply,
  status: number,
  title: string,
  detail?: string,
  errors?: FieldError[],
  reason?: ProblemReason,
) {
  return reply
    .code(status)
    .type(PROBLEM)
    .send({
      type: 'about:blank',
      title,
      status,
      ...(detail ? { detail } : {}),
      ...(reason ? { code: reason.code, ...(reason.params ? { params: reason.params } : {}) } : {}),
      ...(errors ? { errors } : {}),
    });
}

const isProblemCode = (code: unknown): code is ProblemCode =>
  typeof code === 'string' && (PROBLEM_CODES as readonly string[]).includes(code);

/** The problem code (and its params) a contract's custom rule put into its issue's `params`. */
function ruleReason(params: unknown): ProblemReason | undefined {
  const issueParams = (params as { params?: unknown } | undefined)?.params;
  if (typeof issueParams !== 'object' || issueParams === null) return undefined;
  const { code, ...rest } = issueParams as Record<string, unknown>;
  if (!isProblemCode(code)) return undefined;
  const values = Object.entries(rest).filter(
    (entry): entry is [string, string | number] =>
      typeof entry[1] === 'string' || typeof entry[1] === 'number',
  );
  return values.length > 0 ? { code, params: Object.fromEntries(values) } : { code };
}

/**
 * Installs the error handler; unmatched `/api/*` routes are handled by the caller's 404 handler.
 * Every 5xx goes to `reporter` too (error-reporting.ts: Sentry when a DSN is set).
 */
export function installErrorHandler(app: FastifyInstance, reporter: ServerErrorReporter = noErrorReporter) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.status >= 500) reporter.capture(error, request);
      if (error.headers) reply.headers(error.headers);
      return sendProblem(reply, error.status, error.title, error.detail, error.errors, error.reason);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => {
        // An unknown key is reported on its parent object; name the key itself.
        const keys = v.keyword === 'unrecognized_keys' ? (v.params as { keys?: string[] }).keys : undefined;
        const path = [...v.instancePath.split('/').filter(Boolean), ...(keys ?? []).slice(0, 1)];
        // The one validation a screen words itself; others read "not accepted".
        const email = v.keyword === 'invalid_format' && (v.params as { format?: string }).format === 'email';
        // A contract rule names its problem code in the issue's params (e.g. wall_control_order).
        const rule = v.keyword === 'custom' ? ruleReason(v.params) : undefined;
        return {
          field: [error.validationContext ?? 'body', ...path].join('.'),
          message: v.message ?? 'Invalid value.',
          ...(email ? { code: 'invalid_email' as const } : {}),
          ...rule,
        };
      });
      return sendProblem(reply, 400, 'Bad Request', errors[0]?.message ?? 'Invalid request.', errors);
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const { title, detail } = frameworkProblem(status, error.code);
      return sendProblem(reply, status, title, detail);
    }
    request.log.error({ err: error }, 'request failed');
    reporter.capture(error, request);
    return sendProblem(reply, 500, 'Internal Server Error', 'Something went wrong on our side.');
  });
}

/**
 * Answers requests that arrive while the server drains (an open keep-alive connection during
 * shutdown) with 503 problem+json and `Connection: close`; Fastify's own 503 is plain JSON, so
 * the app turns it off (`return503OnClosing: false`). Install before the `/oidc` middleware.
 */
export function installClosingAnswer(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    // Plain JSON: the route's own schema for 503 (e.g. the health check's) does not describe a problem.
    reply.header('connection', 'close').serializer(JSON.stringify);
    return sendProblem(reply, 503, 'Service Unavailable', 'The server is shutting down. Try again shortly.');
  });
}

/**
 * Fastify's `frameworkErrors` option: router errors raised before a route is found (a path that
 * is not valid percent-encoding → 400, a path parameter over `maxParamLength` → 414) would
 * otherwise be sent as plain JSON quoting the path.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 400;
  const { title, detail } = frameworkProblem(status, error.code);
  return sendProblem(reply, status, title, detail);
}

/**
 * Fastify's `clientErrorHandler` option: requests Node's HTTP parser refuses never reach Fastify
 * (headers over `maxHeaderSize`, 16 KiB by default, e.g. a 100 kB query string → 431; a request
 * that times out → 408; anything unparsable → 400), so the answer is written to the socket here,
 * as problem+json like every other error, and the connection is closed.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const { title, detail } = frameworkProblem(status);
  const body = JSON.stringify({ type: 'about:blank', title, status, detail });
  this.log.debug({ code: error.code }, 'client error');
  if (socket.writable) {
    socket.write(
      [
        `HTTP/1.1 ${status} ${title}`,
        `Content-Type: ${PROBLEM}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
        'X-Content-Type-Options: nosniff',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy(error);
}
