/**
 * Typed HTTP errors and the one handler that turns every error into RFC 9457
 * problem+json (ARCHITECTURE.md §6). Services throw these; 5xx details are hidden and
 * logged with the request id, never sent to the client.
 */

import { hasZodFastifySchemaValidationErrors } from '@fastify/type-provider-zod';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';

export interface FieldError {
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
  ) {
    super(detail ?? title);
    this.name = 'HttpError';
  }
}

export const badRequest = (detail: string, errors?: FieldError[]) =>
  new HttpError(400, 'Bad Request', detail, errors);
export const unauthorized = (detail = 'A valid bearer token is required.') =>
  new HttpError(401, 'Unauthorized', detail);
export const forbidden = (detail: string) => new HttpError(403, 'Forbidden', detail);
/** 404 is also the answer for another company's ids: no existence oracle (ARCHITECTURE.md §6). */
export const notFound = (detail = 'Not found.') => new HttpError(404, 'Not Found', detail);
export const conflict = (detail: string) => new HttpError(409, 'Conflict', detail);

const PROBLEM = 'application/problem+json; charset=utf-8';

export function sendProblem(
  reply: FastifyReply,
  status: number,
  title: string,
  detail?: string,
  errors?: FieldError[],
) {
  return reply
    .code(status)
    .type(PROBLEM)
    .send({
      type: 'about:blank',
      title,
      status,
      ...(detail ? { detail } : {}),
      ...(errors ? { errors } : {}),
    });
}

/** Installs the error handler; unmatched `/api/*` routes are handled by the caller's 404 handler. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return sendProblem(reply, error.status, error.title, error.detail, error.errors);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        field: `${error.validationContext ?? 'body'}${v.instancePath.replaceAll('/', '.')}`,
        message: v.message ?? 'Invalid value.',
      }));
      return sendProblem(reply, 400, 'Bad Request', errors[0]?.message ?? 'Invalid request.', errors);
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return sendProblem(reply, status, error.name === 'Error' ? 'Request Error' : error.name, error.message);
    }
    request.log.error({ err: error }, 'request failed');
    return sendProblem(reply, 500, 'Internal Server Error', 'Something went wrong on our side.');
  });
}
