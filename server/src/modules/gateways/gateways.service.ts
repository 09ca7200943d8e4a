/**
 * Gateway registry rules (spec §2 "Gateways: created and last seen"): members manage
 * their company's gateways; a gateway EUI belongs to one company only (409); a gateway is
 * online while stats arrived within 2 × its stats interval.
 */
import type {
  Gateway,
  GatewayCreateSchema,
  GatewayListQuerySchema,
  GatewayUpdateSchema,
} from '@heizplan/contracts/devices';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../http/errors.ts';
import * as repo from './gateways.repository.ts';

export interface GatewaysServiceDeps {
  db: Db;
  now: () => Date;
}

/** Online = last stats no older than 2 × the stats interval (a single lost stats message is tolerated). */
export function isGatewayOnline(lastSeen: Date | null, statsIntervalS: number, now: Date): boolean {
  return lastSeen !== null && now.getTime() - lastSeen.getTime() <= 2 * statsIntervalS * 1000;
}

const GATEWAY_NOT_FOUND = 'Gateway not found.';

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';

const euiTaken = (eui: string) =>
  conflict(`The gateway ${eui} is already registered; a gateway EUI can belong to one company only.`, {
    code: 'gateway_taken',
    params: { eui },
  });

export class GatewaysService {
  constructor(private readonly deps: GatewaysServiceDeps) {}

  private toResponse(g: repo.GatewayRow): Gateway {
    return {
      id: g.id,
      gatewayEui: g.gatewayEui,
      name: g.name,
      createdAt: g.createdAt.toISOString(),
      lastSeen: g.lastSeen ? g.lastSeen.toISOString() : null,
      statsIntervalS: g.statsIntervalS,
      online: isGatewayOnline(g.lastSeen, g.statsIntervalS, this.deps.now()),
    };
  }

  async list(userId: string, companyId: string, query: z.output<typeof GatewayListQuerySchema>) {
    await requireMember(this.deps.db, userId, companyId, 'read');
    const { rows, count } = await repo.listGateways(this.deps.db, companyId, query);
    return { results: rows.map((g) => this.toResponse(g)), count, page: query.page, size: query.size };
  }

  async get(userId: string, companyId: string, id: string): Promise<Gateway> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    const row = await repo.findGateway(this.deps.db, companyId, id);
    if (!row) throw notFound(GATEWAY_NOT_FOUND, { code: 'gateway_not_found' });
    return this.toResponse(row);
  }

  async create(
    userId: string,
    companyId: string,
    body: z.output<typeof GatewayCreateSchema>,
  ): Promise<Gateway> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'operate');
    if (await repo.gatewayEuiTaken(db, body.gatewayEui)) throw euiTaken(body.gatewayEui);
    try {
      return this.toResponse(await repo.insertGateway(db, { ...body, companyId, createdBy: userId }));
    } catch (error) {
      if (isUniqueViolation(error)) throw euiTaken(body.gatewayEui);
      throw error;
    }
  }

  async update(
    userId: string,
    companyId: string,
    id: string,
    patch: z.output<typeof GatewayUpdateSchema>,
  ): Promise<Gateway> {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    const row = await repo.updateGateway(this.deps.db, companyId, id, patch);
    if (!row) throw notFound(GATEWAY_NOT_FOUND, { code: 'gateway_not_found' });
    return this.toResponse(row);
  }

  async remove(userId: string, companyId: string, id: string): Promise<void> {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    if (!(await repo.deleteGateway(this.deps.db, companyId, id))) {
      throw notFound(GATEWAY_NOT_FOUND, { code: 'gateway_not_found' });
    }
  }
}
