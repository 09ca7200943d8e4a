import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createAppKeyCipher, loadDeviceKey } from './app-key-cipher.ts';

const APP_KEY = '2b7e151628aed2a6abf7158809cf4f3c';

describe('AppKey cipher', () => {
  const cipher = createAppKeyCipher(Buffer.alloc(32, 7));

  it('round-trips an AppKey and never stores it in clear', () => {
    const stored = cipher.encrypt(APP_KEY, '70b3d57ed005a1b2');
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain(APP_KEY);
    expect(cipher.decrypt(stored, '70b3d57ed005a1b2')).toBe(APP_KEY);
  });

  it('uses a fresh IV so equal keys encrypt differently', () => {
    expect(cipher.encrypt(APP_KEY, 'a')).not.toBe(cipher.encrypt(APP_KEY, 'a'));
  });

  it('refuses a value moved to another device or read with another key', () => {
    const stored = cipher.encrypt(APP_KEY, '70b3d57ed005a1b2');
    expect(() => cipher.decrypt(stored, '70b3d57ed005a1b3')).toThrow();
    expect(() => createAppKeyCipher(Buffer.alloc(32, 8)).decrypt(stored, '70b3d57ed005a1b2')).toThrow();
  });
});

describe('device key', () => {
  it('is generated once in $DATA_DIR/device-key (mode 0600) and reused', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'heizplan-key-'));
    const first = await loadDeviceKey({ dataDir });
    const second = await loadDeviceKey({ dataDir });
    expect(first.length).toBe(32);
    expect(second.equals(first)).toBe(true);
    expect((await stat(path.join(dataDir, 'device-key'))).mode & 0o777).toBe(0o600);
    expect((await readFile(path.join(dataDir, 'device-key'), 'utf8')).trim()).toBe(first.toString('hex'));
  });

  it('rejects a damaged key file instead of generating a new key', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'heizplan-key-'));
    await writeFile(path.join(dataDir, 'device-key'), 'not a key');
    await expect(loadDeviceKey({ dataDir })).rejects.toThrow('does not hold a 32-byte hex key');
  });

  it('takes DEVICE_KEY_SECRET as hex or base64 and rejects other lengths', () => {
    const hex = 'ab'.repeat(32);
    expect(loadConfig({ DEVICE_KEY_SECRET: hex }).deviceKey?.toString('hex')).toBe(hex);
    const base64 = Buffer.alloc(32, 3).toString('base64');
    expect(loadConfig({ DEVICE_KEY_SECRET: base64 }).deviceKey?.equals(Buffer.alloc(32, 3))).toBe(true);
    expect(() => loadConfig({ DEVICE_KEY_SECRET: 'abcd' })).toThrow('DEVICE_KEY_SECRET: must be 32 bytes');
  });
});
