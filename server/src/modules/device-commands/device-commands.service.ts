/**
 * One-off device commands (decision 0062): a motor recalibration for one valve from its row or
 * for up to 1,000 at once. The request is remembered on the device and rides behind the next
 * setpoint downlink within the device's airtime budget (lorawan/device-config.ts); the
 * downlink queue is told at once, so it goes with the device's next uplink.
 */
import type { RecalibrateInput, RecalibrateResult } from '@heizplan/contracts/device-profiles';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import { getCodec } from '../../lorawan/codecs/registry.ts';
import * as repo from './device-commands.repository.ts';

export class DeviceCommandsService {
  constructor(
    private readonly deps: { db: Db; now: () => Date; requested?: (deviceIds: string[]) => void },
  ) {}

  /**
   * Asks for a motor recalibration of each device whose model has the command.
   * @throws 404 `device_not_found` when an id is not one of the company's devices (nothing is asked then).
   */
  async recalibrate(userId: string, companyId: string, input: RecalibrateInput): Promise<RecalibrateResult> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'operate');
    const ids = [...new Set(input.deviceIds)];
    const devices = await repo.companyDevices(db, companyId, ids);
    const missing = ids.find((id) => !devices.has(id));
    if (missing)
      throw notFound(`Device ${missing} not found.`, { code: 'device_not_found', params: { id: missing } });
    const able = ids.filter((id) => getCodec(devices.get(id) as string).config?.recalibrate !== undefined);
    await repo.requestRecalibration(db, companyId, able, this.deps.now());
    if (able.length > 0) this.deps.requested?.(able);
    return { requested: able.length, unsupported: ids.filter((id) => !able.includes(id)) };
  }
}
