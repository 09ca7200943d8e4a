/**
 * Builds the account services (me, companies, licences, invites; issue 4) from `app.deps`.
 * Called per request: construction is a handful of objects, and reading `app.deps` late
 * lets the composition root and tests supply ports after the routes are registered.
 */
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyInstance } from 'fastify';
import { requireMember } from '../../auth/membership.ts';
import { markCompanyUnitsDue } from '../../jobs/heating-apply.ts';
import { billingService } from '../billing/billing.wiring.ts';
import { CompaniesRepository } from '../companies/companies.repository.ts';
import { CompaniesService, type MemberGuard } from '../companies/companies.service.ts';
import { InvitesRepository } from '../invites/invites.repository.ts';
import { InvitesService } from '../invites/invites.service.ts';
import { LicensesRepository } from '../licenses/licenses.repository.ts';
import { LicensesService } from '../licenses/licenses.service.ts';
import { resolveAccountPorts } from './me.ports.ts';
import { MeRepository } from './me.repository.ts';
import { MeService } from './me.service.ts';

export function accountServices(app: FastifyInstance) {
  const { database, config, accountPorts } = app.deps;
  const db = database.db;
  const guard: MemberGuard = (userId, companyId, capability) =>
    requireMember(db, userId, companyId, capability);
  const ports = resolveAccountPorts(accountPorts, app.log);
  // Spec §4: an account deletion request cancels the subscription at the end of the period.
  const billing = accountPorts?.billing ?? {
    onAccountDeletion: (userId: string) => billingService(app).cancelForAccountDeletion(userId),
  };
  const companies: CompaniesService = new CompaniesService(
    new CompaniesRepository(db),
    guard,
    config.agreements,
    { create: (userId, companyId, input) => invites.create(userId, companyId, input) },
    {
      settingsChanged: async (companyId) => {
        await markCompanyUnitsDue(db, companyId, new Date());
        app.deps.heatingScheduler?.wake();
      },
    },
  );
  const invites = new InvitesService(
    new InvitesRepository(db),
    guard,
    companies,
    ports.mailer,
    config.publicUrl,
    app.log,
    db,
  );
  return {
    companies,
    invites,
    licenses: new LicensesService(new LicensesRepository(db), guard, config.agreements),
    me: new MeService(
      new MeRepository(db),
      { ...ports, billing },
      { externalIssuer: Boolean(config.oidc.issuer) },
    ),
  };
}

/** Response schemas for the given error statuses, all problem+json (ARCHITECTURE.md §6). */
export function problems<S extends number>(...statuses: S[]): Record<S, typeof ProblemSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ProblemSchema])) as Record<S, typeof ProblemSchema>;
}
