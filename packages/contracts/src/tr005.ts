/**
 * Device codes typed or scanned on /assign (spec §2): the LoRa Alliance TR005 "LoRaWAN Device
 * Identification QR Codes" format and a bare DevEUI. Shared by the web (scanner input) and the
 * server (lookup), so both read a code the same way.
 *
 * TR005 (final, schema D0): `LW:D0:<JoinEUI>:<DevEUI>:<ProfileID>[:<extension>…]`, fields
 * separated by `:`; JoinEUI and DevEUI are 8 bytes (16 hex), ProfileID is 4 bytes (8 hex) =
 * VendorID (2 bytes, assigned by the LoRa Alliance) + ModelID (2 bytes, vendor's choice).
 * Extensions start with a tag letter: `C` checksum (4 hex), `O` owner token, `S` serial number,
 * `P` proprietary. Unknown tags are ignored so later revisions still parse; the checksum is
 * returned but not verified. Example from The Things Stack's TR005 reader:
 * `LW:D0:1122334455667788:AABBCCDDEEFF0011:AABB1122:OAABBCCDDEEFF:SYYWWNNNNNN:PFOOBAR:CAF2C`.
 */

/** What a device code says; EUIs and ids are lowercase hex (ChirpStack's spelling). */
export interface DeviceCode {
  devEui: string;
  joinEui?: string;
  vendorId?: string;
  modelId?: string;
  serial?: string;
  ownerToken?: string;
  proprietary?: string;
  checksum?: string;
}

/** Stable reasons a code is rejected; the web maps them to translated messages. */
export type DeviceCodeErrorCode =
  | 'empty'
  | 'unrecognised'
  | 'too-few-parts'
  | 'bad-join-eui'
  | 'bad-dev-eui'
  | 'bad-profile-id'
  | 'bad-extension';

export class DeviceCodeError extends Error {
  constructor(
    public readonly code: DeviceCodeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DeviceCodeError';
  }
}

const HEX16 = /^[0-9a-f]{16}$/i;
const HEX8 = /^[0-9a-f]{8}$/i;
const HEX4 = /^[0-9a-f]{4}$/i;

const EXTENSIONS = { C: 'checksum', O: 'ownerToken', S: 'serial', P: 'proprietary' } as const;
type ExtensionTag = keyof typeof EXTENSIONS;
const isExtensionTag = (tag: string): tag is ExtensionTag => tag in EXTENSIONS;

function parseTr005(parts: string[]): DeviceCode {
  if (parts.length < 5) {
    throw new DeviceCodeError(
      'too-few-parts',
      `A TR005 code has at least 5 ':'-separated parts, got ${parts.length}.`,
    );
  }
  const [, , joinEui = '', devEui = '', profileId = '', ...extensions] = parts;
  if (!HEX16.test(joinEui))
    throw new DeviceCodeError('bad-join-eui', `JoinEUI '${joinEui}' is not 16 hex digits.`);
  if (!HEX16.test(devEui))
    throw new DeviceCodeError('bad-dev-eui', `DevEUI '${devEui}' is not 16 hex digits.`);
  if (!HEX8.test(profileId)) {
    throw new DeviceCodeError('bad-profile-id', `ProfileID '${profileId}' is not 4 bytes (8 hex digits).`);
  }
  const code: DeviceCode = {
    devEui: devEui.toLowerCase(),
    joinEui: joinEui.toLowerCase(),
    vendorId: profileId.slice(0, 4).toLowerCase(),
    modelId: profileId.slice(4).toLowerCase(),
  };
  for (const extension of extensions) {
    const tag = extension.charAt(0).toUpperCase();
    const value = extension.slice(1);
    if (!isExtensionTag(tag)) continue;
    const field = EXTENSIONS[tag];
    if (value === '' || code[field] !== undefined) {
      throw new DeviceCodeError('bad-extension', `Extension '${extension}' is empty or repeated.`);
    }
    if (tag === 'C' && !HEX4.test(value)) {
      throw new DeviceCodeError('bad-extension', `Checksum '${value}' is not 4 hex digits.`);
    }
    code[field] = tag === 'C' ? value.toLowerCase() : value;
  }
  return code;
}

/**
 * Reads a TR005 QR code or a bare 16-hex DevEUI (surrounding whitespace ignored).
 * @throws DeviceCodeError with a `code` and an English message saying what is wrong.
 */
export function parseDeviceCode(input: string): DeviceCode {
  const text = input.trim();
  if (text === '') throw new DeviceCodeError('empty', 'Enter or scan a device code.');
  if (HEX16.test(text)) return { devEui: text.toLowerCase() };
  const parts = text.split(':');
  if (parts[0]?.toUpperCase() === 'LW' && parts[1]?.toUpperCase() === 'D0') return parseTr005(parts);
  throw new DeviceCodeError(
    'unrecognised',
    `'${text}' is neither a DevEUI (16 hex digits) nor a LoRaWAN QR code (LW:D0:…).`,
  );
}
