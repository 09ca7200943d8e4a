/**
 * Import endpoints (decision 0063) under `/api/companies/{companyId}/imports`: a file's preview,
 * the remembered mapping of a kind, the dry run and the commit. Files come as the request body
 * (`text/csv` or the XLSX content type; the bytes decide which it is), at most IMPORT_MAX_BYTES.
 * The commit answers its result as JSON, or with `Accept: application/x-ndjson` a line of
 * progress per chunk written and then the result. Thin: parse, call ImportsService, answer.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import {
  IMPORT_CONTENT_TYPES,
  IMPORT_MAX_BYTES,
  ImportCheckSchema,
  ImportKindParamsSchema,
  ImportMappingAnswerSchema,
  ImportMappingQuerySchema,
  ImportPreviewSchema,
  ImportResultSchema,
  ImportRunQuerySchema,
  ImportSettingsSchema,
  type ImportStreamLine,
} from '@heizplan/contracts/imports';
import type { Problem } from '@heizplan/contracts/problem';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors, problems } from '../../http/company-resource-routes.ts';
import { HttpError } from '../../http/errors.ts';
import { collectUpload } from './import-file.ts';
import type { ImportsService } from './imports.service.ts';

const tags = ['imports'];
const errors = { ...companyRouteErrors, ...problems(413, 415) };
const NDJSON = 'application/x-ndjson';
/** Content types a file may come as; Windows browsers label a `.csv` `application/vnd.ms-excel`. */
const FILE_TYPES = [
  IMPORT_CONTENT_TYPES.csv,
  IMPORT_CONTENT_TYPES.xlsx,
  'text/plain',
  'application/vnd.ms-excel',
  'application/octet-stream',
];
/** The request body of the file routes: the file's bytes (absent: answered 400 by the service). */
const FileSchema = z
  .custom<Buffer | null | undefined>(
    (value) => value === undefined || value === null || Buffer.isBuffer(value),
  )
  .describe(
    `The file, CSV (; or , separated, UTF-8) or XLSX (first sheet), at most ${IMPORT_MAX_BYTES} bytes`,
  );

export async function importsRoutes(fastify: FastifyInstance, options: { imports: ImportsService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = options.imports;

  app.get(
    '/companies/:companyId/imports/:kind/mapping',
    {
      schema: {
        tags,
        summary:
          'The column mapping and defaults the company used last for units or devices, fitted to the columns given; none yet: one suggested from them',
        params: ImportKindParamsSchema,
        querystring: ImportMappingQuerySchema,
        response: { 200: ImportMappingAnswerSchema, ...errors },
      },
    },
    async (request) =>
      service.mapping(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.kind,
        request.query.columns,
      ),
  );

  app.put(
    '/companies/:companyId/imports/:kind/mapping',
    {
      schema: {
        tags,
        summary: 'Remember the column mapping (field → column header) and defaults (field → value) of a kind',
        params: ImportKindParamsSchema,
        body: ImportSettingsSchema,
        response: { 200: ImportMappingAnswerSchema, ...errors },
      },
    },
    async (request) =>
      service.saveMapping(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.kind,
        request.body,
      ),
  );

  // biome-ignore lint/nursery/noMisusedPromises: Fastify awaits async plugins; the rule reads register's callback overload.
  await fastify.register(fileRoutes, { imports: service });
}

/** The routes that take a file: their own body parsers, so the JSON routes keep theirs. */
async function fileRoutes(fastify: FastifyInstance, { imports: service }: { imports: ImportsService }) {
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser(FILE_TYPES, async (request: FastifyRequest, payload: IncomingMessage) =>
    collectUpload(payload, request.headers['content-length']),
  );
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // A preview and a dry run change nothing; a commit's entry is written in its own transaction.
  const config = { audit: false as const };

  app.post(
    '/companies/:companyId/imports/preview',
    {
      config,
      schema: {
        tags,
        summary: 'The header and first rows of a CSV or XLSX file, to map its columns (nothing is stored)',
        consumes: FILE_TYPES,
        params: CompanyParamsSchema,
        body: FileSchema,
        response: { 200: ImportPreviewSchema, ...errors },
      },
    },
    async (request) => service.preview(requireAuth(request).sub, request.params.companyId, request.body),
  );

  app.post(
    '/companies/:companyId/imports/:kind/dry-run',
    {
      config,
      schema: {
        tags,
        summary:
          'Check every row of a file as an import would (mapping and defaults as JSON in the query, else the remembered ones); writes nothing',
        consumes: FILE_TYPES,
        params: ImportKindParamsSchema,
        querystring: ImportRunQuerySchema,
        body: FileSchema,
        response: { 200: ImportCheckSchema, ...errors },
      },
    },
    async (request) =>
      service.dryRun(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.kind,
        request.body,
        request.query,
      ),
  );

  app.post(
    '/companies/:companyId/imports/:kind/commit',
    {
      config,
      schema: {
        tags,
        summary:
          'Import every row of a file in one transaction, all or none (400 import_has_problems lists each problem); with Accept: application/x-ndjson progress lines {"done","total"} and then {"result"}',
        consumes: FILE_TYPES,
        produces: ['application/json', NDJSON],
        params: ImportKindParamsSchema,
        querystring: ImportRunQuerySchema,
        body: FileSchema,
        // The NDJSON answer is a stream; the document shows the JSON one.
        response: { 200: z.union([ImportResultSchema, z.instanceof(Readable)]), ...errors },
      },
    },
    async (request, reply) => {
      const { companyId, kind } = request.params;
      const prepared = await service.prepareCommit(
        requireAuth(request).sub,
        companyId,
        kind,
        request.body,
        request.query,
      );
      if (!request.headers.accept?.includes(NDJSON)) return prepared.run(noop, noop);
      const out = new PassThrough();
      const line = (value: ImportStreamLine) => out.write(`${JSON.stringify(value)}\n`);
      const total = prepared.total;
      let streaming = false;
      try {
        const result = await prepared.run(
          () => {
            streaming = true;
            void reply.type(`${NDJSON}; charset=utf-8`).send(out);
            line({ done: 0, total });
          },
          (done) => line({ done, total }),
        );
        line({ result });
      } catch (error) {
        // Before the answer began, the error handler answers problem+json as on any route.
        if (!streaming) throw error;
        request.log.error({ err: error }, 'import failed after its answer began');
        line({ error: streamedProblem(error) });
      }
      out.end();
      return reply;
    },
  );
}

const noop = () => {};

/** The problem a failure after the NDJSON answer began is reported as (a 5xx hides its details). */
function streamedProblem(error: unknown): Problem {
  if (error instanceof HttpError && error.status < 500)
    return {
      type: 'about:blank',
      title: error.title,
      status: error.status,
      ...(error.detail ? { detail: error.detail } : {}),
      ...(error.reason
        ? { code: error.reason.code, ...(error.reason.params ? { params: error.reason.params } : {}) }
        : {}),
      ...(error.errors ? { errors: error.errors } : {}),
    };
  return {
    type: 'about:blank',
    title: 'Internal Server Error',
    status: 500,
    detail: 'Something went wrong on our side. Nothing was imported.',
  };
}
