/**
 * Settings → team (spec §2 team, §4, §5, §8): the invite form, invite codes and the
 * members table with role changes and the removal dialog, rule by rule.
 */
import type { Company, Invite, Member } from '@heizplan/contracts/account';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { problem } from '../../test/units-fixtures.ts';

const me: Member = { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin' };
const grace: Member = { id: 'u2', name: 'Grace Hopper', email: 'grace@example.com', role: 'heating' };
const alan: Member = { id: 'u3', name: 'Alan Turing', email: 'alan@example.com', role: 'ems' };

const invite = (id: string, email: string | null): Invite => ({
  id,
  email,
  company: 'c1',
  role: 'heating',
  created_at: '2026-11-20T10:00:00Z',
});

interface Team {
  company?: Company;
  members?: Member[];
  invites?: Invite[];
  /** Answers the team's writes; unanswered ones get the default success below. */
  writes?: FetchHandler;
  lang?: 'en' | 'de';
}

function openTeam({
  company = testCompany(),
  members = [me, grace, alan],
  invites = [],
  writes,
  lang = 'en',
}: Team = {}) {
  const api: FetchHandler = (method, url, init) => {
    const path = url.split('?')[0];
    const written = method === 'GET' ? undefined : writes?.(method, url, init);
    if (written) return written;
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, company);
    if (method === 'GET' && path === '/api/companies/c1/members/') return json(200, members);
    if (method === 'GET' && path === '/api/invite/') return json(200, invites);
    if (method === 'POST' && path === '/api/invite/') {
      const body = JSON.parse(String(init.body)) as { email?: string };
      return json(201, invite('NEWCODE', body.email ?? null));
    }
    if (method === 'DELETE') return json(204);
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/settings/team', { session }), fetchMock };
}

const bodiesOf = (fetchMock: ReturnType<typeof vi.fn>, method: string, path: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => String(url).split('?')[0] === path && (init as RequestInit)?.method === method)
    .map(([, init]) => JSON.parse(String((init as RequestInit).body ?? 'null')));

describe('settings team', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  describe('second factors column', () => {
    it('names each member’s factors and marks the admins the company requires one of who have none', async () => {
      openTeam({
        company: testCompany({ second_factor_required: 'admins' }),
        members: [
          { ...me, factors: { totp: false, passkeys: 0 } },
          { ...grace, factors: { totp: true, passkeys: 2 } },
          { ...alan, factors: { totp: false, passkeys: 0 } },
          {
            id: 'u4',
            name: 'Barbara Liskov',
            email: 'b@example.com',
            role: 'admin',
            factors: { totp: false, passkeys: 1 },
          },
        ],
      });
      const table = await screen.findByRole('table', { name: 'Members' });
      await within(table).findByText('Grace Hopper');
      expect(within(table).getByRole('columnheader', { name: /Second factor/ })).toBeVisible();
      const row = (name: string) => {
        const tr = within(table).getByText(name).closest('tr');
        if (!tr) throw new Error(`no row of ${name}`);
        return within(tr);
      };
      expect(row('Grace Hopper').getByText('2FA: TOTP, 2 passkeys')).toBeVisible();
      expect(row('Barbara Liskov').getByText('2FA: 1 passkey')).toBeVisible();
      expect(row('Ada Lovelace').getByText('No second factor')).toBeVisible();
      expect(row('Ada Lovelace').getByText('Required by the company')).toBeVisible();
      // EMS members are not covered by a policy for admins.
      expect(row('Alan Turing').getByText('No second factor')).toBeVisible();
      expect(row('Alan Turing').queryByText('Required by the company')).toBeNull();
    });

    it('resets another member’s factors after a confirmation naming them, and offers no reset of one’s own', async () => {
      const { fetchMock } = openTeam({
        members: [
          { ...me, factors: { totp: true, passkeys: 0 } },
          { ...grace, factors: { totp: true, passkeys: 2 } },
          { ...alan, factors: { totp: false, passkeys: 0 } },
        ],
        writes: (method, url) =>
          method === 'POST' && url === '/api/companies/c1/members/u2/second-factor/reset'
            ? json(204)
            : undefined,
      });
      const table = await screen.findByRole('table', { name: 'Members' });
      await within(table).findByText('Grace Hopper');
      expect(
        within(table).queryByRole('button', { name: 'Reset the second factor of Ada Lovelace' }),
      ).toBeNull();
      // Nothing to reset for a member without a factor.
      expect(
        within(table).queryByRole('button', { name: 'Reset the second factor of Alan Turing' }),
      ).toBeNull();
      await userEvent.click(
        within(table).getByRole('button', { name: 'Reset the second factor of Grace Hopper' }),
      );
      const dialog = await screen.findByRole('dialog', { name: 'Reset second factor?' });
      expect(
        within(dialog).getByText(/recovery codes and passkeys of Grace Hopper \(grace@example.com\)/),
      ).toBeVisible();
      expect(bodiesOf(fetchMock, 'POST', '/api/companies/c1/members/u2/second-factor/reset')).toEqual([]);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
      expect(await screen.findByText('Second factor reset')).toBeVisible();
      expect(
        fetchMock.mock.calls.filter(
          ([url, init]) =>
            url === '/api/companies/c1/members/u2/second-factor/reset' &&
            (init as RequestInit)?.method === 'POST',
        ),
      ).toHaveLength(1);
    });

    it('says it in German', async () => {
      await setLanguage('de');
      openTeam({
        lang: 'de',
        members: [
          { ...grace, factors: { totp: true, passkeys: 2 } },
          { ...me, factors: { totp: false, passkeys: 0 } },
        ],
      });
      const table = await screen.findByRole('table', { name: 'Mitglieder' });
      expect(await within(table).findByText('2FA: TOTP, 2 Passkeys')).toBeVisible();
      expect(within(table).getByText('Kein zweiter Faktor')).toBeVisible();
    });
  });

  describe('invite form', () => {
    it('has an email input of type email and a send button disabled while it is empty', async () => {
      openTeam();
      const email = await screen.findByTestId('invite-email');
      expect(email).toHaveAttribute('type', 'email');
      expect(screen.getByTestId('invite-send')).toBeDisabled();
      await userEvent.type(email, '   ');
      expect(screen.getByTestId('invite-send')).toBeDisabled();
      await userEvent.type(email, 'neu@example.com');
      expect(screen.getByTestId('invite-send')).toBeEnabled();
    });

    it('offers the roles EMS, Heating and Admin with the company default preselected', async () => {
      openTeam({ company: testCompany({ default_invite_role: 'ems' }) });
      const role = await screen.findByTestId('invite-role');
      expect(
        within(role)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['EMS (read only)', 'Heating', 'Admin']);
      expect(role).toHaveValue('ems');
    });

    it('replaces the form with a loading indicator while sending, then clears the email and says so', async () => {
      let release: (r: Response) => void = () => {};
      const { fetchMock } = openTeam({
        writes: (method, url) =>
          method === 'POST' && url.startsWith('/api/invite/')
            ? (new Promise<Response>((resolve) => {
                release = resolve;
              }) as unknown as Response)
            : undefined,
      });
      await userEvent.type(await screen.findByTestId('invite-email'), 'neu@example.com');
      await userEvent.selectOptions(screen.getByTestId('invite-role'), 'admin');
      await userEvent.click(screen.getByTestId('invite-send'));
      expect(await screen.findByTestId('invite-sending')).toBeVisible();
      expect(screen.queryByTestId('invite-email')).toBeNull();
      release(json(201, invite('CODE', 'neu@example.com')));
      expect(await screen.findByText('Invitation sent')).toBeVisible();
      expect(screen.getByTestId('invite-email')).toHaveValue('');
      expect(bodiesOf(fetchMock, 'POST', '/api/invite/')).toEqual([
        { email: 'neu@example.com', role: 'admin' },
      ]);
    });

    it('keeps the email and shows an error toast when sending fails', async () => {
      openTeam({
        writes: (method, url) =>
          method === 'POST' && url.startsWith('/api/invite/')
            ? problem(502, 'Bad Gateway', 'The invitation mail could not be sent.')
            : undefined,
      });
      await userEvent.type(await screen.findByTestId('invite-email'), 'neu@example.com');
      await userEvent.click(screen.getByTestId('invite-send'));
      expect(await screen.findByText('Error sending invitation')).toBeVisible();
      expect(screen.getByTestId('invite-email')).toHaveValue('neu@example.com');
    });

    it('sends no role and names the default one when the company has the role choice off', async () => {
      const { fetchMock } = openTeam({
        company: testCompany({ invite_role_choice: false, default_invite_role: 'heating' }),
      });
      await userEvent.type(await screen.findByTestId('invite-email'), 'neu@example.com');
      expect(screen.queryByTestId('invite-role')).toBeNull();
      expect(screen.queryByTestId('code-role')).toBeNull();
      expect(screen.getByTestId('invite-default-role')).toHaveTextContent(
        'New members get the role “Heating”.',
      );
      await userEvent.click(screen.getByTestId('invite-send'));
      await screen.findByText('Invitation sent');
      expect(bodiesOf(fetchMock, 'POST', '/api/invite/')).toEqual([{ email: 'neu@example.com' }]);
    });
  });

  describe('invite codes', () => {
    it('blurs each code behind a placeholder until clicked, reveals only one at a time, and says no Email', async () => {
      openTeam({ invites: [invite('FIRSTCODE', null), invite('SECONDCODE', 'bob@example.com')] });
      const [first, second] = await screen.findAllByTestId('invite-code');
      if (!first || !second) throw new Error('two invites expected');
      expect(screen.queryByText('FIRSTCODE')).toBeNull();
      expect(screen.queryByText('SECONDCODE')).toBeNull();
      expect(screen.getAllByTestId('invite-code-hidden')).toHaveLength(2);
      expect(screen.getAllByTestId('invite-row-email').map((e) => e.textContent)).toEqual([
        'no Email',
        'bob@example.com',
      ]);
      expect(first).toHaveAccessibleName('Show code');
      await userEvent.click(first);
      expect(screen.getByText('FIRSTCODE')).toBeVisible();
      // Shown, the button's name starts with the code it shows (label in name).
      expect(first).toHaveAccessibleName('FIRSTCODE – Hide code');
      await userEvent.click(second);
      expect(screen.getByText('SECONDCODE')).toBeVisible();
      expect(screen.queryByText('FIRSTCODE')).toBeNull();
      await userEvent.click(second);
      expect(screen.queryByText('SECONDCODE')).toBeNull();
    });

    it('creates a code with the chosen role and shows it', async () => {
      const { fetchMock } = openTeam();
      await userEvent.selectOptions(await screen.findByTestId('code-role'), 'ems');
      await userEvent.click(screen.getByTestId('invite-code-create'));
      expect(await screen.findByText('Invite code created')).toBeVisible();
      expect(bodiesOf(fetchMock, 'POST', '/api/invite/')).toEqual([{ role: 'ems' }]);
    });

    it('withdraws a code; a failed withdrawal is only logged', async () => {
      const info = vi.spyOn(console, 'info').mockImplementation(() => {});
      const { fetchMock } = openTeam({
        invites: [invite('FIRSTCODE', null)],
        writes: (method) => (method === 'DELETE' ? problem(500, 'Internal Server Error') : undefined),
      });
      await userEvent.click(await screen.findByTestId('invite-withdraw'));
      await waitFor(() =>
        expect(info).toHaveBeenCalledWith('withdrawing the invite failed', expect.anything()),
      );
      expect(bodiesOf(fetchMock, 'DELETE', '/api/invite/FIRSTCODE')).toHaveLength(1);
      expect(screen.queryByRole('status', { name: /error/i })).toBeNull();
      expect(screen.queryByText('Error deleting')).toBeNull();
      info.mockRestore();
    });
  });

  describe('members table', () => {
    it('lists name, email, role and actions; the first three sort', async () => {
      openTeam();
      const table = await screen.findByTestId('members');
      await within(table).findByText('Grace Hopper');
      const headers = within(table).getAllByRole('columnheader');
      expect(headers.map((h) => h.textContent)).toEqual([
        expect.stringMatching(/^Name/),
        expect.stringMatching(/^Email/),
        expect.stringMatching(/^Role/),
        expect.stringMatching(/^Second factor/),
        'Actions',
      ]);
      const names = () =>
        within(table)
          .getAllByRole('row')
          .slice(1)
          // The name, without the email a phone shows under it.
          .map((row) => within(row).getAllByRole('cell')[0]?.firstElementChild?.textContent);
      expect(names()).toEqual(['Ada Lovelace(you)', 'Alan Turing', 'Grace Hopper']);
      await userEvent.click(within(table).getByRole('button', { name: /Email/ }));
      expect(names()).toEqual(['Ada Lovelace(you)', 'Alan Turing', 'Grace Hopper']);
      await userEvent.click(within(table).getByRole('button', { name: /Role/ }));
      expect(names()).toEqual(['Ada Lovelace(you)', 'Alan Turing', 'Grace Hopper']);
      await userEvent.click(within(table).getByRole('button', { name: /Role/ }));
      expect(names()).toEqual(['Grace Hopper', 'Alan Turing', 'Ada Lovelace(you)']);
      expect(within(table).queryByRole('button', { name: /Actions/ })).toBeNull();
    });

    it('changes a member’s role', async () => {
      const { fetchMock } = openTeam({
        writes: (method) => (method === 'PATCH' ? json(200, { ...grace, role: 'admin' }) : undefined),
      });
      const roleButton = await screen.findByRole('button', {
        name: 'Heating – change the role of Grace Hopper',
      });
      // The arrow keys move through the roles without changing anybody's.
      roleButton.focus();
      await userEvent.keyboard('{Enter}');
      expect(await screen.findByRole('menuitem', { name: 'EMS (read only)' })).toHaveFocus();
      await userEvent.keyboard('{ArrowDown}');
      expect(screen.getByRole('menuitem', { name: 'Admin' })).toHaveFocus();
      expect(screen.queryByRole('menuitem', { name: 'Heating' })).toBeNull();
      expect(bodiesOf(fetchMock, 'PATCH', '/api/companies/c1/members/u2')).toEqual([]);
      await userEvent.keyboard('{Enter}');
      expect(await screen.findByText('Role changed')).toBeVisible();
      expect(bodiesOf(fetchMock, 'PATCH', '/api/companies/c1/members/u2')).toEqual([{ role: 'admin' }]);
    });

    it('locks the last admin’s role and removal', async () => {
      openTeam();
      expect(
        await screen.findByRole('button', { name: 'Admin – change the role of Ada Lovelace' }),
      ).toBeDisabled();
      expect(screen.getByTestId('member-remove-u1')).toBeDisabled();
      expect(screen.getByTestId('member-remove-u2')).toBeEnabled();
    });

    it('removes a member through a dialog naming them; the dialog closes on success', async () => {
      let release: (r: Response) => void = () => {};
      const { fetchMock } = openTeam({
        writes: (method) =>
          method === 'DELETE'
            ? (new Promise<Response>((resolve) => {
                release = resolve;
              }) as unknown as Response)
            : undefined,
      });
      await userEvent.click(await screen.findByTestId('member-remove-u2'));
      const dialog = await screen.findByTestId('remove-member-dialog');
      expect(within(dialog).getByTestId('remove-member-text')).toHaveTextContent(
        'Grace Hopper (grace@example.com) loses access to this company at once.',
      );
      await userEvent.click(within(dialog).getByTestId('remove-member-dialog-confirm'));
      expect(within(dialog).getByTestId('remove-member-dialog-confirm-spinner')).toBeVisible();
      release(json(204));
      await waitFor(() => expect(screen.queryByTestId('remove-member-dialog')).toBeNull());
      expect(await screen.findByText('Member removed')).toBeVisible();
      expect(bodiesOf(fetchMock, 'DELETE', '/api/companies/c1/members/u2')).toHaveLength(1);
    });

    it('closes the dialog on failure too and shows Error deleting', async () => {
      openTeam({
        writes: (method) => (method === 'DELETE' ? problem(500, 'Internal Server Error') : undefined),
      });
      await userEvent.click(await screen.findByTestId('member-remove-u3'));
      await userEvent.click(await screen.findByTestId('remove-member-dialog-confirm'));
      await waitFor(() => expect(screen.queryByTestId('remove-member-dialog')).toBeNull());
      expect(await screen.findByText('Error deleting')).toBeVisible();
      expect(screen.getByText('An error occurred while deleting the user')).toBeVisible();
    });

    it('clears the selection when the dialog is closed', async () => {
      const { fetchMock } = openTeam();
      await userEvent.click(await screen.findByTestId('member-remove-u2'));
      await userEvent.click(await screen.findByTestId('remove-member-dialog-cancel'));
      await waitFor(() => expect(screen.queryByTestId('remove-member-dialog')).toBeNull());
      await userEvent.click(screen.getByTestId('member-remove-u3'));
      expect(await screen.findByTestId('remove-member-text')).toHaveTextContent(
        'Alan Turing (alan@example.com)',
      );
      expect(bodiesOf(fetchMock, 'DELETE', '/api/companies/c1/members/u2')).toHaveLength(0);
    });

    it('says why when the server refuses to remove the last admin', async () => {
      openTeam({
        members: [me, { ...grace, role: 'admin' }],
        writes: (method) => (method === 'DELETE' ? problem(409, 'Conflict', 'last admin') : undefined),
      });
      await userEvent.click(await screen.findByTestId('member-remove-u2'));
      await userEvent.click(await screen.findByTestId('remove-member-dialog-confirm'));
      expect(
        await screen.findByText('A company needs at least one admin. Make another member admin first.'),
      ).toBeVisible();
    });
  });
});
