/**
 * The account's sessions at the embedded provider (decision 0074). The provider's Session rows
 * (`oidc_payloads`, kind `Session`) say which sessions live; `account_sessions` adds what the
 * settings show — browser and OS parsed from the user agent (`ua-parser-js` 1.x, MIT), first and
 * last use — recorded from the provider's events: a finished authorization (sign-in, silent
 * renewal) and a token grant (code exchange, refresh). Access tokens carry their session's uid
 * (claim `sid`), so the API knows "this session".
 *
 * Ending a session deletes its provider Session, the grants it holds and every token issued in
 * it (refresh tokens, codes), so it cannot renew; an access token already issued in it stays
 * valid until it expires (15 minutes), as JWTs cannot be recalled one by one.
 */
import type { Session } from '@heizplan/contracts/sessions';
import { UAParser } from 'ua-parser-js';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { notFound } from '../http/errors.ts';
import { createMailer } from '../mail/mailer.ts';
import { userLanguage } from './accounts.repository.ts';
import { type IdentityDeps, nowOf } from './accounts.service.ts';
import { t } from './pages.i18n.ts';
import * as repo from './sessions.repository.ts';

/** Browser and OS names of a user agent ("Firefox", "Windows"); empty strings when unknown. */
export function parseUserAgent(userAgent: string): { browser: string; os: string } {
  const result = new UAParser(userAgent).getResult();
  return { browser: result.browser.name ?? '', os: result.os.name ?? '' };
}

/**
 * Records a use of provider session `sessionUid` of `accountId` at `now`: a new row with the user
 * agent's browser and OS, or the last use of a known one. @returns true when the row is new.
 */
export async function recordSessionUse(
  db: Db,
  use: { sessionUid: string; accountId: string; userAgent: string; now: Date },
): Promise<boolean> {
  const { browser, os } = parseUserAgent(use.userAgent);
  return repo.upsertSessionUse(db, { ...use, userAgent: use.userAgent.slice(0, 512), browser, os });
}

/**
 * `GET /me/sessions`: the account's live sessions, the last used first; `currentSid` (the `sid`
 * claim of the caller's access token) is marked `current`.
 */
export async function listSessions(
  deps: IdentityDeps,
  accountId: string,
  currentSid: string | undefined,
): Promise<Session[]> {
  const live = await repo.liveSessionUids(deps.db, accountId, nowOf(deps));
  if (live.length === 0) return [];
  const rows = await repo.sessionRows(deps.db, accountId, live);
  return rows.map((row) => ({
    id: row.sessionUid,
    browser: row.browser,
    os: row.os,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt.toISOString(),
    current: row.sessionUid === currentSid,
  }));
}

/**
 * Ends the account's sessions `uids` at the provider: their Session rows, the grants they hold
 * and the tokens issued in them; marks them ended. @returns the uids that were the account's.
 */
async function endSessions(deps: IdentityDeps, accountId: string, uids: string[]): Promise<string[]> {
  if (uids.length === 0) return [];
  return deps.db.transaction(async (tx) => {
    const sessions = await repo.deleteProviderSessions(tx, accountId, uids);
    const ended = sessions.map((s) => String((s.payload as { uid?: string }).uid ?? ''));
    // A session holds one grant per client (`authorizations[clientId].grantId`).
    const grantIds = sessions.flatMap((s) =>
      Object.values(
        (s.payload as { authorizations?: Record<string, { grantId?: string }> }).authorizations ?? {},
      )
        .map((a) => a.grantId)
        .filter((id): id is string => typeof id === 'string'),
    );
    if (ended.length > 0) {
      await repo.deleteSessionTokens(tx, ended, grantIds);
      await repo.markSessionsEnded(tx, accountId, ended, nowOf(deps));
    }
    return ended;
  });
}

/** `DELETE /me/sessions/:sessionId`. @throws HttpError 404 when the account has no such live session. */
export async function endSession(deps: IdentityDeps, accountId: string, sessionUid: string): Promise<void> {
  if ((await endSessions(deps, accountId, [sessionUid])).length === 0) throw notFound('No such session.');
}

/** `DELETE /me/sessions?others=true`: ends every live session of the account but `currentSid`. */
export async function endOtherSessions(
  deps: IdentityDeps,
  accountId: string,
  currentSid: string | undefined,
): Promise<void> {
  const live = await repo.liveSessionUids(deps.db, accountId, nowOf(deps));
  await endSessions(
    deps,
    accountId,
    live.filter((uid) => uid !== currentSid),
  );
}

/**
 * After the first use of a new session: when the account signed in before, but never from this
 * browser on this system, mails the owner "Neue Anmeldung bei Heizplan" / "New sign-in to
 * Heizplan" with browser, system and time (the account's language, its company's time zone), so
 * a sign-in by someone else does not go unnoticed. The account's first session (registration)
 * sends nothing.
 */
export async function mailIfNewBrowser(
  db: Db,
  config: Config,
  use: { sessionUid: string; accountId: string; userAgent: string; now: Date },
): Promise<void> {
  const { browser, os } = parseUserAgent(use.userAgent);
  const others = await repo.otherSessionDevices(db, use.accountId, use.sessionUid);
  if (others.length === 0 || others.some((o) => o.browser === browser && o.os === os)) return;
  const account = await repo.accountContact(db, use.accountId);
  if (!account) return;
  const lang = await userLanguage(db, use.accountId);
  const timeZone = await repo.userTimeZone(db, use.accountId);
  const time = new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(use.now);
  await createMailer(config).send({
    to: account.email,
    subject: t(lang, 'newSignInMailSubject'),
    text: t(lang, 'newSignInMailBody', {
      name: account.name,
      browser: browser || t(lang, 'unknownBrowser'),
      os: os || t(lang, 'unknownOs'),
      time,
      link: `${config.publicUrl}/settings/general`,
    }),
  });
}
