/**
 * The devices as a network server's import file (decision 0060), so a fleet registered in Heizplan
 * is registered in the network server without typing DevEUIs again. Never an AppKey: Heizplan
 * stores AppKeys encrypted and returns none, so the importer adds them from their own records.
 *
 * - `tts`: The Things Stack's end-device CSV ("CSV File Reference", thethingsindustries.com/docs/
 *   hardware/devices/adding-devices/adding-devices-in-bulk/device-csv; parser `pkg/devicetemplates/
 *   ttscsv.go` of TheThingsNetwork/lorawan-stack): `;`, a header row, columns
 *   `id;dev_eui;join_eui;name;description;frequency_plan_id;lorawan_version;lorawan_phy_version`.
 *   The id follows TTS's own fallback `eui-<DevEUI in lowercase>`; the name is the unit's, else
 *   the DevEUI; the description Heizplan's model id. Defaults where Heizplan keeps nothing: JoinEUI
 *   `0000000000000000` (TTS requires one; the all-zero JoinEUI many valves ship with),
 *   `EU_863_870_TTN`, LoRaWAN `MAC_V1_0_3` with `PHY_V1_0_3_REV_A` (the codecs' sources name no
 *   version; TTN's device repository gives the Vicki and Milesight's EU868 profile MAC 1.0.3 with
 *   RP001-1.0.3-RevA, vendor/mclimate/vicki-profile.yaml and vendor/milesight-iot/profile-eu868.yaml;
 *   the other models take the same default). The `app_key` column TTS requires is left to the
 *   importer.
 * - `chirpstack`: ChirpStack v4 has no CSV import (its UI adds devices one by one; bulk means its
 *   API, chirpstack/chirpstack#403). The file is a `,`-CSV whose columns are the fields of the API's
 *   `Device` message (`api/proto/api/device.proto`, the body of `CreateDeviceRequest`, POST
 *   /api/devices): `dev_eui,name,description,application_id,device_profile_id,join_eui,
 *   skip_fcnt_check,is_disabled`, one row per request. `application_id` and `device_profile_id`
 *   are ChirpStack's UUIDs, which Heizplan does not know: left empty for the importer; the AppKey
 *   goes to `CreateDeviceKeysRequest` (`nwk_key` for LoRaWAN 1.0.x) from their own records.
 */
import type { Device } from '@heizplan/contracts/devices';
import { delimitedExport, type TableExport } from '../../http/table-export.ts';

export type NetworkServerFormat = 'tts' | 'chirpstack';

/** JoinEUI where Heizplan has none (TTS requires one). */
const ZERO_EUI = '0000000000000000';

const TTS_HEADER = [
  'id',
  'dev_eui',
  'join_eui',
  'name',
  'description',
  'frequency_plan_id',
  'lorawan_version',
  'lorawan_phy_version',
];
const CHIRPSTACK_HEADER = [
  'dev_eui',
  'name',
  'description',
  'application_id',
  'device_profile_id',
  'join_eui',
  'skip_fcnt_check',
  'is_disabled',
];

const devEuiOf = (d: Device) => (d.devEui ?? d.id).toLowerCase();
const nameOf = (d: Device) => d.unitName ?? devEuiOf(d);

const ROWS: Record<NetworkServerFormat, (d: Device) => string[]> = {
  tts: (d) => [
    `eui-${devEuiOf(d)}`,
    devEuiOf(d),
    d.joinEui ?? ZERO_EUI,
    nameOf(d),
    d.model,
    'EU_863_870_TTN',
    'MAC_V1_0_3',
    'PHY_V1_0_3_REV_A',
  ],
  chirpstack: (d) => [devEuiOf(d), nameOf(d), d.model, '', '', d.joinEui ?? '', 'false', 'false'],
};

/** `devices` (as the API answers them, in the caller's order) as `format`'s import file. */
export function networkServerExport(
  format: NetworkServerFormat,
  devices: AsyncIterable<Device>,
): TableExport {
  const row = ROWS[format];
  async function* rows() {
    for await (const device of devices) yield row(device);
  }
  return format === 'tts'
    ? delimitedExport(rows(), TTS_HEADER, ';')
    : delimitedExport(rows(), CHIRPSTACK_HEADER, ',');
}
