/**
 * `/api/companies/{companyId}/alerts…`, `…/alert-settings`, `…/alert-preferences` and
 * `…/webhooks…`: the alert list and summary, acknowledging and muting, the
 * company's settings, each member's mail preferences, and signed webhooks with their deliveries.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  AcknowledgeSchema,
  AlertListQuerySchema,
  AlertPageSchema,
  AlertPreferencesPatchSchema,
  AlertPreferencesSchema,
  AlertSchema,
  AlertSettingsPatchSchema,
  AlertSettingsSchema,
  AlertSummarySchema,
  MuteSchema,
  WebhookCreatedSchema,
  WebhookCreateSchema,
  WebhookDeliveryListSchema,
  WebhookPatchSchema,
  WebhookSchema,
} from '@heizplan/contracts/alerts';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { AlertsService } from './alerts.service.ts';

const base = '/companies/:companyId';
const AlertParams = CompanyParamsSchema.extend({ alertId: z.string().max(64) });
const WebhookParams = CompanyParamsSchema.extend({ webhookId: z.string().max(64) });

export async function alertsRoutes(fastify: FastifyInstance, { alerts: service }: { alerts: AlertsService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['alerts'];
  const sub = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).sub;

  app.get(
    `${base}/alerts`,
    {
      schema: {
        tags,
        summary: 'Alerts, filtered by kind, state, unit or group, sorted and paged',
        params: CompanyParamsSchema,
        querystring: AlertListQuerySchema,
        response: { 200: AlertPageSchema, ...errors },
      },
    },
    async (request) => service.list(sub(request), request.params.companyId, request.query),
  );

  app.get(
    `${base}/alerts/summary`,
    {
      schema: {
        tags,
        summary: 'Open alerts wanting attention, and open alerts per unit and device',
        params: CompanyParamsSchema,
        response: { 200: AlertSummarySchema, ...errors },
      },
    },
    async (request) => service.summary(sub(request), request.params.companyId),
  );

  app.post(
    `${base}/alerts/:alertId/acknowledge`,
    {
      schema: {
        tags,
        summary: 'Acknowledge an alert, with an optional note',
        params: AlertParams,
        body: AcknowledgeSchema,
        response: { 200: AlertSchema, ...errors },
      },
    },
    async (request) =>
      service.acknowledge(sub(request), request.params.companyId, request.params.alertId, request.body.note),
  );

  app.post(
    `${base}/alerts/:alertId/mute`,
    {
      schema: {
        tags,
        summary: 'Mute an alert for some hours (0 unmutes)',
        params: AlertParams,
        body: MuteSchema,
        response: { 200: AlertSchema, ...errors },
      },
    },
    async (request) =>
      service.mute(sub(request), request.params.companyId, request.params.alertId, request.body.hours),
  );

  app.get(
    `${base}/alert-settings`,
    {
      schema: {
        tags,
        summary: 'The company’s alert conditions and thresholds',
        params: CompanyParamsSchema,
        response: { 200: AlertSettingsSchema, ...errors },
      },
    },
    async (request) => service.settings(sub(request), request.params.companyId),
  );

  app.patch(
    `${base}/alert-settings`,
    {
      schema: {
        tags,
        summary: 'Tune or switch off alert conditions (admins)',
        params: CompanyParamsSchema,
        body: AlertSettingsPatchSchema,
        response: { 200: AlertSettingsSchema, ...errors },
      },
    },
    async (request) => service.updateSettings(sub(request), request.params.companyId, request.body),
  );

  app.get(
    `${base}/alert-preferences`,
    {
      schema: {
        tags,
        summary: 'The caller’s alert mails per kind: immediate, daily digest or off',
        params: CompanyParamsSchema,
        response: { 200: AlertPreferencesSchema, ...errors },
      },
    },
    async (request) => service.preferences(sub(request), request.params.companyId),
  );

  app.patch(
    `${base}/alert-preferences`,
    {
      schema: {
        tags,
        summary: 'Change the caller’s alert mails for some kinds',
        params: CompanyParamsSchema,
        body: AlertPreferencesPatchSchema,
        response: { 200: AlertPreferencesSchema, ...errors },
      },
    },
    async (request) => service.updatePreferences(sub(request), request.params.companyId, request.body),
  );

  app.get(
    `${base}/webhooks`,
    {
      schema: {
        tags,
        summary: 'Webhook endpoints with their deliveries of the last 7 days (admins)',
        params: CompanyParamsSchema,
        response: { 200: z.object({ results: z.array(WebhookSchema) }), ...errors },
      },
    },
    async (request) => ({ results: await service.webhooks(sub(request), request.params.companyId) }),
  );

  app.post(
    `${base}/webhooks`,
    {
      schema: {
        tags,
        summary: 'Register an HTTPS endpoint; the answer holds its signing secret, once (admins)',
        params: CompanyParamsSchema,
        body: WebhookCreateSchema,
        response: { 201: WebhookCreatedSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.createWebhook(sub(request), request.params.companyId, request.body.url)),
  );

  app.get(
    `${base}/webhooks/:webhookId`,
    {
      schema: {
        tags,
        summary: 'One webhook endpoint (admins)',
        params: WebhookParams,
        response: { 200: WebhookSchema, ...errors },
      },
    },
    async (request) => service.webhook(sub(request), request.params.companyId, request.params.webhookId),
  );

  app.patch(
    `${base}/webhooks/:webhookId`,
    {
      schema: {
        tags,
        summary: 'Switch an endpoint on or off (admins)',
        params: WebhookParams,
        body: WebhookPatchSchema,
        response: { 200: WebhookSchema, ...errors },
      },
    },
    async (request) =>
      service.updateWebhook(
        sub(request),
        request.params.companyId,
        request.params.webhookId,
        request.body.enabled,
      ),
  );

  app.delete(
    `${base}/webhooks/:webhookId`,
    {
      schema: {
        tags,
        summary: 'Remove an endpoint and its deliveries (admins)',
        params: WebhookParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteWebhook(sub(request), request.params.companyId, request.params.webhookId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/webhooks/:webhookId/deliveries`,
    {
      schema: {
        tags,
        summary: 'An endpoint’s deliveries of the last 7 days, newest first (admins)',
        params: WebhookParams,
        response: { 200: WebhookDeliveryListSchema, ...errors },
      },
    },
    async (request) => ({
      results: await service.deliveries(sub(request), request.params.companyId, request.params.webhookId),
    }),
  );
}
