/**
 * AppKeys at rest: AES-256-GCM under the device key from DEVICE_KEY_SECRET, or, when
 * that is unset (embedded mode), a key generated once and kept in `$DATA_DIR/device-key`
 * (mode 0600). The device id is the additional authenticated data, so an encrypted AppKey copied
 * onto another device row fails to decrypt instead of yielding the wrong key.
 *
 * Stored form: `v1:<iv>:<tag>:<ciphertext>`, each part base64; 12-byte random IV per value.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import { readOrCreateHexSecret } from '../../secret-file.ts';

export interface AppKeyCipher {
  /** Encrypts a 32-hex AppKey for `deviceId`. */
  encrypt(appKey: string, deviceId: string): string;
  /** @throws Error when the value was not written by `encrypt` for `deviceId` under this key. */
  decrypt(stored: string, deviceId: string): string;
}

export function createAppKeyCipher(key: Buffer): AppKeyCipher {
  if (key.length !== 32) throw new Error('The device key must be 32 bytes.');
  return {
    encrypt(appKey, deviceId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(deviceId));
      const ciphertext = Buffer.concat([cipher.update(appKey, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), ciphertext]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
        .join(':');
    },
    decrypt(stored, deviceId) {
      const [version, iv, tag, ciphertext] = stored.split(':');
      if (version !== 'v1' || !iv || !tag || ciphertext === undefined)
        throw new Error('Unknown AppKey format.');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(deviceId));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/**
 * The configured device key, else the one in `$DATA_DIR/device-key`, created on first use.
 * Several servers sharing one database must all be given the same DEVICE_KEY_SECRET.
 * @throws Error when the key file exists but is not a 64-hex-digit key.
 */
export async function loadDeviceKey(config: Pick<Config, 'deviceKey' | 'dataDir'>): Promise<Buffer> {
  if (config.deviceKey) return config.deviceKey;
  return Buffer.from(await readOrCreateHexSecret(config.dataDir, 'device-key'), 'hex');
}
