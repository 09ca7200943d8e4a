import { describe, expect, it } from 'vitest';
import { DeviceCodeError, parseDeviceCode } from './tr005.ts';

describe('parseDeviceCode', () => {
  // Example from the TR005 reader in The Things Stack's console (TheThingsNetwork/lorawan-stack).
  it('reads every field of a TR005 code with all extensions', () => {
    expect(
      parseDeviceCode(
        'LW:D0:1122334455667788:AABBCCDDEEFF0011:AABB1122:OAABBCCDDEEFF:SYYWWNNNNNN:PFOOBAR:CAF2C',
      ),
    ).toEqual({
      joinEui: '1122334455667788',
      devEui: 'aabbccddeeff0011',
      vendorId: 'aabb',
      modelId: '1122',
      ownerToken: 'AABBCCDDEEFF',
      serial: 'YYWWNNNNNN',
      proprietary: 'FOOBAR',
      checksum: 'af2c',
    });
  });

  it('reads a minimal TR005 code of exactly five parts', () => {
    expect(parseDeviceCode('LW:D0:70B3D57ED0000000:70B3D57ED005A1B2:A81758FF')).toEqual({
      joinEui: '70b3d57ed0000000',
      devEui: '70b3d57ed005a1b2',
      vendorId: 'a817',
      modelId: '58ff',
    });
  });

  it('accepts a bare DevEUI in either case, trimmed, and stores it lowercase', () => {
    expect(parseDeviceCode('  70B3D57ED005A1B2\n')).toEqual({ devEui: '70b3d57ed005a1b2' });
  });

  it('ignores unknown extension tags so later TR005 revisions still parse', () => {
    expect(parseDeviceCode('LW:D0:1122334455667788:AABBCCDDEEFF0011:AABB1122:XFUTURE').devEui).toBe(
      'aabbccddeeff0011',
    );
  });

  it.each([
    ['', 'empty'],
    ['70B3D57ED005A1B', 'unrecognised'],
    ['hello', 'unrecognised'],
    ['LW:D0:1122334455667788:AABBCCDDEEFF0011', 'too-few-parts'],
    ['LW:D0:11223344556677:AABBCCDDEEFF0011:AABB1122', 'bad-join-eui'],
    ['LW:D0:1122334455667788:AABBCCDDEEFF00ZZ:AABB1122', 'bad-dev-eui'],
    ['LW:D0:1122334455667788:AABBCCDDEEFF0011:AABB11', 'bad-profile-id'],
    ['LW:D0:1122334455667788:AABBCCDDEEFF0011:AABB1122:C12', 'bad-extension'],
    ['LW:D0:1122334455667788:AABBCCDDEEFF0011:AABB1122:S1:S2', 'bad-extension'],
    ['LW:D0:1122334455667788:AABBCCDDEEFF0011:AABB1122:O', 'bad-extension'],
  ])('rejects %j as %s', (input, code) => {
    try {
      parseDeviceCode(input);
      expect.unreachable('parseDeviceCode should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(DeviceCodeError);
      expect((error as DeviceCodeError).code).toBe(code);
      expect((error as DeviceCodeError).message.length).toBeGreaterThan(10);
    }
  });
});
