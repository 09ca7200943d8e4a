/**
 * Operator tool of the manual billing provider:
 *
 *   npm run billing -- mark-paid <company id or name> [--url http://127.0.0.1:3000]
 *
 * Confirms a payment received for a company: its open invoices become paid, and a pending
 * (delayed payment) or late subscription active. It calls the running server's operator API
 * with OPERATOR_TOKEN, or the token the server keeps in `$DATA_DIR/operator-token` — never the
 * database directly, because an embedded database must not be opened by two processes.
 *
 * Exit code 0 on success, 1 when the server refuses, 2 for a usage error.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { readOrCreateHexSecret } from '../../secret-file.ts';

const USAGE = 'usage: billing mark-paid <company id or name> [--url <server URL>]';

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Runs the tool with `args` (without `node` and the script); @returns the exit code. */
export async function runBillingCli(
  args: string[],
  io: Io,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { url: { type: 'string' } },
    strict: false,
  });
  const [command, company] = positionals;
  if (command !== 'mark-paid' || !company) {
    io.err(USAGE);
    return 2;
  }
  const config = loadConfig(env);
  const token = config.operatorToken ?? (await readOrCreateHexSecret(config.dataDir, 'operator-token'));
  const base = typeof values.url === 'string' ? values.url : `http://127.0.0.1:${config.port}`;
  const res = await fetch(`${base}/api/operator/billing/${encodeURIComponent(company)}/mark-paid`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { companyName?: string; companyId?: string; detail?: string };
  if (!res.ok) {
    io.err(`${res.status}: ${body.detail ?? 'refused'}`);
    return 1;
  }
  io.out(`Marked paid: ${body.companyName} (${body.companyId})`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const code = await runBillingCli(process.argv.slice(2), {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  process.exit(code);
}
