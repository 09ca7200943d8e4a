/**
 * Outbox mode of the mailer (no SMTP_URL): each mail becomes an .eml file in
 * `$DATA_DIR/outbox/` and its path is logged, so a fresh install can read its links.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createMailer } from './mailer.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'heizplan-mail-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

it('writes an .eml file to the outbox, logs its path and uses the default sender', async () => {
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'https://heizung.example.com' });
  const logged: object[] = [];
  const mailer = createMailer(config, { info: (obj) => logged.push(obj) });
  const { outboxPath } = await mailer.send({ to: 'ada@example.test', subject: 'Hallo', text: 'Grüße' });

  expect(await readdir(path.join(dataDir, 'outbox'))).toEqual([path.basename(outboxPath ?? '')]);
  const raw = await readFile(outboxPath ?? '', 'utf8');
  expect(raw).toContain('To: ada@example.test');
  expect(raw).toContain('From: Heizplan <no-reply@heizung.example.com>');
  expect(raw).toContain('Subject: Hallo');
  expect(logged).toEqual([expect.objectContaining({ path: outboxPath, to: 'ada@example.test' })]);
});

it('uses MAIL_FROM as the sender when set', async () => {
  const config = loadConfig({ DATA_DIR: dataDir, MAIL_FROM: 'Hausverwaltung <heizung@example.org>' });
  const { outboxPath } = await createMailer(config).send({ to: 'b@example.test', subject: 's', text: 't' });
  expect(await readFile(outboxPath ?? '', 'utf8')).toContain('From: Hausverwaltung <heizung@example.org>');
});
