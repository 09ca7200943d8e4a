/**
 * Secrets an embedded install generates for itself (device key, operator token): kept in a file
 * of `$DATA_DIR` (mode 0600), written once — when two processes race, both read the winner's.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The 64 hex digits (32 random bytes) in `<dataDir>/<name>`, created on first use.
 * @throws Error when the file exists but holds something else.
 */
export async function readOrCreateHexSecret(dataDir: string, name: string): Promise<string> {
  const file = path.join(dataDir, name);
  const read = async () => {
    const hex = (await readFile(file, 'utf8')).trim();
    if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} does not hold a 32-byte hex key.`);
    return hex;
  };
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return read();
}
