/**
 * The mailer: outbox mode (no SMTP_URL) writes each mail as an .eml file to
 * `$DATA_DIR/outbox/` and logs its path, so a fresh install can read its links; SMTP mode
 * delivers to the server in SMTP_URL (here a minimal RFC 5321 responder on loopback).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
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

/** Accepts one SMTP session per connection and records the DATA of each message. */
async function startSmtpSink(): Promise<{ port: number; messages: string[]; close(): Promise<void> }> {
  const messages: string[] = [];
  const server = createServer((socket: Socket) => {
    let inData = false;
    let data = '';
    let buffer = '';
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push(data);
            data = '';
            socket.write('250 queued\r\n');
          } else data += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 sink\r\n');
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

it('delivers through SMTP when SMTP_URL is set and writes no outbox file', async () => {
  const sink = await startSmtpSink();
  try {
    const config = loadConfig({ DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${sink.port}` });
    const result = await createMailer(config).send({
      to: 'c@example.test',
      subject: 'Link',
      text: 'https://x/y',
    });
    expect(result.outboxPath).toBeUndefined();
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]).toContain('To: c@example.test');
    expect(sink.messages[0]).toContain('Subject: Link');
    expect(await readdir(dataDir)).toEqual([]);
  } finally {
    await sink.close();
  }
});
