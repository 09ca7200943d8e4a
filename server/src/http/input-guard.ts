/**
 * Refuses text the database cannot hold before any route sees it (decision 0030).
 * PostgreSQL `text` cannot store NUL (U+0000): a NUL in a path id, a search query or a body field
 * reached the SQL and failed there with a 500 ("invalid byte sequence for encoding UTF8: 0x00").
 * A lone UTF-16 surrogate (JSON `"\ud800"`) cannot be encoded as UTF-8 and was stored as U+FFFD,
 * i.e. not what the client sent. Both now answer 400 problem+json at one place, for every route.
 */
import type { FastifyInstance } from 'fastify';
import { badRequest, type FieldError } from './errors.ts';

/** NUL or a code point that is half a surrogate pair (only a lone one is a `Cs` code point). */
const UNSTORABLE = /[\0\p{Cs}]/u;
const MESSAGE = 'Text must not contain NUL characters or unpaired surrogates.';

/**
 * The dotted path (e.g. `body.dates.2`) of a string in `value` — strings,
 * array items, object values and object keys — that PostgreSQL cannot store; undefined when none.
 * Walks with its own stack: a deeply nested JSON body must not overflow the call stack.
 */
export function findUnstorableText(value: unknown, root: string): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (UNSTORABLE.test(item)) return path;
    } else if (ArrayBuffer.isView(item)) {
      // A raw body (Buffer) is bytes, not text; walking it would visit every byte.
    } else if (Array.isArray(item)) {
      for (const [index, child] of item.entries()) stack.push([child, `${path}.${index}`]);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (UNSTORABLE.test(key)) return path;
        stack.push([child, `${path}.${key}`]);
      }
    }
  }
  return undefined;
}

/**
 * Adds a `preValidation` hook to `app` that checks path parameters, the query string and the
 * parsed body of every route registered after it.
 * @throws HttpError 400 with one field error naming the offending part, e.g. `querystring.q`.
 */
export function installInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const parts: [unknown, string][] = [
      [request.params, 'params'],
      [request.query, 'querystring'],
      [request.body, 'body'],
    ];
    for (const [value, root] of parts) {
      const field = findUnstorableText(value, root);
      if (field) {
        const error: FieldError = { field, message: MESSAGE };
        throw badRequest(MESSAGE, [error]);
      }
    }
  });
}
