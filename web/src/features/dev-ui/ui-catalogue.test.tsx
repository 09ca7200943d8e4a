import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';

afterEach(async () => {
  await i18n.changeLanguage('de');
});

describe('/dev/ui widget catalogue', () => {
  it('shows every widget of components/ui', async () => {
    renderRoutes(routes, '/dev/ui');
    expect(await screen.findByTestId('catalogue-title')).toHaveTextContent('Widget-Katalog');
    for (const id of [
      'buttons',
      'fields',
      'combobox',
      'tooltip',
      'toast',
      'steps',
      'spinner',
      'dialog',
      'table',
    ]) {
      expect(screen.getByTestId(`catalogue-${id}`)).toBeInTheDocument();
    }
    expect(screen.getByTestId('demo-table-row-r1')).toHaveTextContent('Raum 1');
    expect(screen.getByTestId('demo-search')).toHaveAttribute('placeholder', 'Suchen...');
  });

  it('switches the whole catalogue to English', async () => {
    renderRoutes(routes, '/dev/ui');
    await userEvent.click(await screen.findByTestId('catalogue-lang-en'));
    expect(screen.getByTestId('catalogue-title')).toHaveTextContent('Widget catalogue');
    expect(screen.getByTestId('demo-table-empty')).toHaveTextContent('No entries found');
    expect(screen.getByTestId('catalogue-lang-en')).toHaveAttribute('aria-pressed', 'true');
  });

  // The checks the browser journey made before /dev/ui left production builds.
  it('sorts a table column, closes its dialog with Escape and shows a toast', async () => {
    renderRoutes(routes, '/dev/ui');
    const sort = await screen.findByTestId('demo-table-sort-name');
    const header = screen.getByTestId('demo-table-header-name');
    const firstName = () => within(screen.getAllByTestId(/^demo-table-row-/)[0]!).getAllByRole('cell')[0];
    await userEvent.click(sort);
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(sort);
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(firstName()).toHaveTextContent('Raum 42');
    await userEvent.click(sort);
    expect(header).not.toHaveAttribute('aria-sort');
    expect(firstName()).toHaveTextContent('Raum 1');

    await userEvent.click(screen.getByTestId('demo-dialog-open'));
    expect(screen.getByTestId('demo-dialog')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('demo-dialog')).toBeNull();
    expect(screen.getByTestId('demo-dialog-open')).toHaveFocus();

    await userEvent.click(screen.getByTestId('demo-toast-success'));
    expect(await screen.findByTestId('app-toast')).toHaveTextContent('Raum angelegt');
  });
});
