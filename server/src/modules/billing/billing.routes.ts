/**
 * `/api/companies/{companyId}/billing/*`: the billing state every member reads, the
 * quote (net, VAT, gross), checkout and its confirmation, subscription changes, the billing
 * address, invoices (with the manual provider's PDFs) and the payment provider's page — plus
 * Stripe's signed webhook and the operator's "mark paid".
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  BillingAddressInputSchema,
  BillingAddressResponseSchema,
  BillingOverviewSchema,
  CheckoutIdSchema,
  CheckoutRequestSchema,
  CheckoutResponseSchema,
  CheckoutStatusSchema,
  InvoiceListSchema,
  PortalResponseSchema,
  QuoteRequestSchema,
  QuoteSchema,
  SubscriptionPatchSchema,
} from '@heizplan/contracts/billing';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import type { Config } from '../../config.ts';
import { bearerTokenMatches } from '../../http/bearer-token.ts';
import { companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import { unauthorized } from '../../http/errors.ts';
import { readOrCreateHexSecret } from '../../secret-file.ts';
import type { BillingService } from './billing.service.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';

const tags = ['billing'];
const base = '/companies/:companyId/billing';

export interface BillingRoutesOptions {
  billing: BillingService;
  /** OPERATOR_TOKEN, or DATA_DIR where the generated one is kept. */
  config: Pick<Config, 'operatorToken' | 'dataDir'>;
}

export async function billingRoutes(fastify: FastifyInstance, { billing, config }: BillingRoutesOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const sub = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).sub;

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'Subscription, licences in use, unit and device counts, net prices (any member)',
        params: CompanyParamsSchema,
        response: { 200: BillingOverviewSchema, ...errors },
      },
    },
    async (request) => billing.overview(sub(request), request.params.companyId),
  );

  app.post(
    `${base}/quote`,
    {
      // A price is asked, nothing changes: no audit entry.
      config: { audit: false },
      schema: {
        tags,
        summary:
          'What an order of licences costs: unit price, net, prorated for a change, VAT and gross (any member)',
        params: CompanyParamsSchema,
        body: QuoteRequestSchema,
        response: { 200: QuoteSchema, ...errors },
      },
    },
    async (request) => billing.quote(sub(request), request.params.companyId, request.body),
  );

  app.post(
    `${base}/checkout`,
    {
      schema: {
        tags,
        summary:
          'Start a subscription: the hosted checkout page, or /success with the manual provider (admins)',
        params: CompanyParamsSchema,
        body: CheckoutRequestSchema,
        response: { 200: CheckoutResponseSchema, ...errors },
      },
    },
    async (request) => billing.checkout(sub(request), request.params.companyId, request.body),
  );

  app.get(
    `${base}/checkout/:checkoutId`,
    {
      schema: {
        tags,
        summary: 'Whether a checkout of this company completed, for /success (admins)',
        params: CompanyParamsSchema.extend({ checkoutId: CheckoutIdSchema }),
        response: { 200: CheckoutStatusSchema, ...errors },
      },
    },
    async (request) =>
      billing.checkoutStatus(sub(request), request.params.companyId, request.params.checkoutId),
  );

  app.get(
    `${base}/address`,
    {
      schema: {
        tags,
        summary: 'The billing address printed on invoices; null while none is kept (admins)',
        params: CompanyParamsSchema,
        response: { 200: BillingAddressResponseSchema, ...errors },
      },
    },
    async (request) => ({
      address: await billing.billingAddress(sub(request), request.params.companyId),
    }),
  );

  app.put(
    `${base}/address`,
    {
      schema: {
        tags,
        summary: 'Keep the billing address of future invoices (admins)',
        params: CompanyParamsSchema,
        body: BillingAddressInputSchema,
        response: { 200: BillingAddressResponseSchema, ...errors },
      },
    },
    async (request) => ({
      address: await billing.setBillingAddress(sub(request), request.params.companyId, request.body),
    }),
  );

  app.patch(
    `${base}/subscription`,
    {
      schema: {
        tags,
        summary:
          'Change licences (never below the devices in use), interval, payment method, or cancel (admins)',
        params: CompanyParamsSchema,
        body: SubscriptionPatchSchema,
        response: { 200: BillingOverviewSchema, ...errors },
      },
    },
    async (request) => billing.update(sub(request), request.params.companyId, request.body),
  );

  app.get(
    `${base}/invoices`,
    {
      schema: {
        tags,
        summary: 'Invoices, newest first (admins)',
        params: CompanyParamsSchema,
        response: { 200: InvoiceListSchema, ...errors },
      },
    },
    async (request) => ({ results: await billing.invoices(sub(request), request.params.companyId) }),
  );

  app.get(
    `${base}/invoices/:invoiceId/pdf`,
    {
      schema: {
        tags,
        summary: 'One invoice of the manual provider as PDF (admins)',
        params: CompanyParamsSchema.extend({ invoiceId: z.string().max(64) }),
        produces: ['application/pdf'],
        response: { 200: z.instanceof(Buffer), ...errors },
      },
    },
    async (request, reply) => {
      const invoice = await billing.invoice(sub(request), request.params.companyId, request.params.invoiceId);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${invoice.number}.pdf"`)
        .send(await renderInvoicePdf(invoice));
    },
  );

  app.post(
    `${base}/portal`,
    {
      // Opens the provider's page; what changes there comes back by webhook.
      config: { audit: false },
      schema: {
        tags,
        summary: 'A session on the payment provider’s page for payment details (admins; Stripe)',
        params: CompanyParamsSchema,
        response: { 200: PortalResponseSchema, ...errors },
      },
    },
    async (request) => ({ url: await billing.portal(sub(request), request.params.companyId) }),
  );

  // biome-ignore lint/nursery/noMisusedPromises: Fastify awaits async plugins; the rule reads register's callback overload.
  await fastify.register(stripeWebhookRoute, { billing });
  // biome-ignore lint/nursery/noMisusedPromises: Fastify awaits async plugins; the rule reads register's callback overload.
  await fastify.register(operatorRoutes, { billing, config });
}

/**
 * `POST /api/billing/stripe/webhook`: Stripe's events, verified against STRIPE_WEBHOOK_SECRET
 * over the raw body (a bad or missing signature is 400 and changes nothing), idempotent by id.
 */
async function stripeWebhookRoute(
  fastify: FastifyInstance,
  { billing }: Pick<BillingRoutesOptions, 'billing'>,
) {
  // The signature covers the exact bytes Stripe sent, so this route keeps them unparsed.
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  fastify.withTypeProvider<ZodTypeProvider>().post(
    '/billing/stripe/webhook',
    {
      // Stripe signs the body instead of sending a bearer token.
      config: { public: true },
      schema: {
        tags,
        summary: 'Stripe webhook (signed; checkout, invoices, subscription changes)',
        security: [],
        response: { 200: z.object({ received: z.literal(true) }), 400: ProblemSchema, 404: ProblemSchema },
      },
    },
    async (request) => {
      await billing.handleStripeEvent(request.body, request.headers['stripe-signature']);
      return { received: true as const };
    },
  );
}

/**
 * The operator's API (not for company members): `Authorization: Bearer <OPERATOR_TOKEN>`, or the
 * token generated in `$DATA_DIR/operator-token` when unset (`npm run billing` reads it there).
 */
async function operatorRoutes(fastify: FastifyInstance, { billing, config }: BillingRoutesOptions) {
  const expected = async () =>
    config.operatorToken ?? (await readOrCreateHexSecret(config.dataDir, 'operator-token'));
  fastify.withTypeProvider<ZodTypeProvider>().post(
    '/operator/billing/:company/mark-paid',
    {
      // The operator token below, not a member's bearer token, authorises this route.
      config: { public: true },
      schema: {
        tags: ['operator'],
        summary: 'Mark a company’s open manual payments as received (operator token)',
        security: [{ bearer: [] }],
        params: z.object({ company: z.string().min(1).max(200) }),
        response: {
          200: z.object({ companyId: z.string(), companyName: z.string() }),
          401: ProblemSchema,
          404: ProblemSchema,
          409: ProblemSchema,
        },
      },
    },
    async (request) => {
      if (!bearerTokenMatches(request.headers.authorization, await expected())) {
        throw unauthorized('The operator token is required.');
      }
      return billing.markPaidByOperator(request.params.company);
    },
  );
}
