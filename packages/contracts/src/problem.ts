/** RFC 9457 problem+json body returned by every failing `/api` call (docs/architecture.md). */
import { z } from 'zod';

const ProblemParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));

/**
 * `detail` and `errors[].message` are English sentences for API users and logs; `code` and
 * `params` (see `problem-codes.ts`) are what the web translates. `code` stays a plain string
 * here so a web app older than the server still parses a newer code (and shows a generic text).
 */
export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  code: z.string().optional(),
  params: ProblemParamsSchema.optional(),
  errors: z
    .array(
      z.object({
        field: z.string(),
        message: z.string(),
        code: z.string().optional(),
        params: ProblemParamsSchema.optional(),
      }),
    )
    .optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;

/** Pagination envelope `{results, count, page, size}` (docs/architecture.md). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    results: z.array(item),
    count: z.number().int(),
    page: z.number().int(),
    size: z.number().int(),
  });

/** Query `?page=1&size=10`; size capped so one call cannot ask for the whole table. */
export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(200).default(10),
});
