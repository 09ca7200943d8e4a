import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../app/i18n.ts';
import { ClientTable } from './client-table.tsx';
import { Table, type TableColumn, type TablePage } from './table.tsx';
import { NO_SORT } from './table-sort.ts';

interface Unit {
  id: string;
  name: string;
  setpoint: number;
}

const units = (n: number): Unit[] =>
  Array.from({ length: n }, (_, i) => ({ id: `u${i + 1}`, name: `Raum ${i + 1}`, setpoint: (i * 7) % 5 }));

const columns: TableColumn<Unit>[] = [
  { key: 'name', label: 'Name', sortable: true },
  { key: 'setpoint', label: 'Soll', sortable: true, render: (u) => `${u.setpoint} °C` },
  { key: 'id', label: 'Kennung' },
];

const rowKey = (u: Unit) => u.id;
const names = () =>
  screen.getAllByTestId(/^table-row-/).map((row) => within(row).getAllByRole('cell')[0]?.textContent);
const header = (key: string) => screen.getByTestId(`table-header-${key}`);

function serverTable(overrides: Partial<Parameters<typeof Table<Unit>>[0]> = {}) {
  const handlers = { onSortChange: vi.fn(), onPageChange: vi.fn(), onSizeChange: vi.fn() };
  const data: TablePage<Unit> = { results: units(10), count: 95, page: 1, size: 10 };
  render(<Table columns={columns} data={data} rowKey={rowKey} sort={NO_SORT} {...handlers} {...overrides} />);
  return handlers;
}

afterEach(async () => {
  await i18n.changeLanguage('de');
});

describe('Table sorting', () => {
  it('cycles a sortable column asc → desc → none → asc on repeated clicks', async () => {
    render(<ClientTable columns={columns} rows={units(3).reverse()} rowKey={rowKey} />);
    expect(names()).toEqual(['Raum 3', 'Raum 2', 'Raum 1']);
    const click = () => userEvent.click(screen.getByTestId('table-sort-name'));
    await click();
    expect(header('name')).toHaveAttribute('aria-sort', 'ascending');
    expect(names()).toEqual(['Raum 1', 'Raum 2', 'Raum 3']);
    await click();
    expect(header('name')).toHaveAttribute('aria-sort', 'descending');
    expect(names()).toEqual(['Raum 3', 'Raum 2', 'Raum 1']);
    await click();
    expect(header('name')).toHaveAttribute('data-sort', 'none');
    expect(header('name')).not.toHaveAttribute('aria-sort');
    expect(names()).toEqual(['Raum 3', 'Raum 2', 'Raum 1']);
    await click();
    expect(header('name')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('starts a different column at asc', async () => {
    render(<ClientTable columns={columns} rows={units(5)} rowKey={rowKey} />);
    await userEvent.click(screen.getByTestId('table-sort-name'));
    await userEvent.click(screen.getByTestId('table-sort-name'));
    await userEvent.click(screen.getByTestId('table-sort-setpoint'));
    expect(header('setpoint')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('name')).not.toHaveAttribute('aria-sort');
  });

  it('numbers sort as numbers, names in natural order', async () => {
    render(<ClientTable columns={columns} rows={units(12)} rowKey={rowKey} initialSize={20} />);
    await userEvent.click(screen.getByTestId('table-sort-name'));
    expect(names().slice(0, 3)).toEqual(['Raum 1', 'Raum 2', 'Raum 3']);
    expect(names().at(-1)).toBe('Raum 12');
  });

  it('reports the next sort state in server mode', async () => {
    const { onSortChange } = serverTable({ sort: { key: 'name', order: 'desc' } });
    await userEvent.click(screen.getByTestId('table-sort-name'));
    expect(onSortChange).toHaveBeenCalledWith({ key: 'name', order: 'none' });
  });

  it('ignores sort clicks while loading', async () => {
    const loading = serverTable({ loading: true });
    await userEvent.click(screen.getByTestId('table-sort-name'));
    expect(loading.onSortChange).not.toHaveBeenCalled();
  });

  it('ignores sort clicks when the table is disabled', async () => {
    const disabled = serverTable({ disabled: true });
    await userEvent.click(screen.getByTestId('table-sort-name'));
    expect(disabled.onSortChange).not.toHaveBeenCalled();
  });

  it('ignores clicks on a column that is not sortable', async () => {
    const { onSortChange } = serverTable();
    expect(within(header('id')).queryByRole('button')).toBeNull();
    await userEvent.click(header('id'));
    expect(onSortChange).not.toHaveBeenCalled();
    expect(header('id')).not.toHaveAttribute('aria-sort');
  });
});

describe('Table content', () => {
  it('renders cells through the column render function', () => {
    render(<ClientTable columns={columns} rows={units(2)} rowKey={rowKey} />);
    expect(within(screen.getByTestId('table-row-u2')).getByText('2 °C')).toBeInTheDocument();
  });

  it('shows a loader while loading and no empty text', () => {
    serverTable({ loading: true, data: { results: [], count: 0, page: 1, size: 10 } });
    expect(screen.getByTestId('table-loading')).toBeInTheDocument();
    expect(screen.queryByTestId('table-empty')).toBeNull();
  });

  it('has no loader when not loading', () => {
    serverTable();
    expect(screen.queryByTestId('table-loading')).toBeNull();
  });

  it("shows 'Keine Einträge gefunden' when empty, translated and overridable", async () => {
    const { unmount } = render(<ClientTable columns={columns} rows={[]} rowKey={rowKey} />);
    expect(screen.getByTestId('table-empty')).toHaveTextContent('Keine Einträge gefunden');
    unmount();
    await i18n.changeLanguage('en');
    const again = render(<ClientTable columns={columns} rows={[]} rowKey={rowKey} />);
    expect(screen.getByTestId('table-empty')).toHaveTextContent('No entries found');
    again.unmount();
    render(<ClientTable columns={columns} rows={[]} rowKey={rowKey} emptyText="Noch keine Räume" />);
    expect(screen.getByTestId('table-empty')).toHaveTextContent('Noch keine Räume');
  });
});

describe('Table pagination', () => {
  it("shows 10 rows per page by default, labelled 'Einträge pro Seite', with sizes 5–40", () => {
    render(<ClientTable columns={columns} rows={units(25)} rowKey={rowKey} />);
    const size = screen.getByLabelText('Einträge pro Seite');
    expect(size).toHaveValue('10');
    expect(
      within(size)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['5', '10', '20', '30', '40']);
    expect(screen.getAllByTestId(/^table-row-/)).toHaveLength(10);
  });

  it('has item count / size pages, rounded up', () => {
    render(<ClientTable columns={columns} rows={units(41)} rowKey={rowKey} />);
    expect(screen.getByTestId('table-page-5')).toBeInTheDocument();
    expect(screen.queryByTestId('table-page-6')).toBeNull();
  });

  it('shows at most 5 page buttons, first and last always, with an ellipsis for gaps', async () => {
    render(<ClientTable columns={columns} rows={units(100)} rowKey={rowKey} />);
    const pageButtons = () =>
      screen.getAllByRole('button', { name: /^Seite \d+$/ }).map((b) => b.textContent);
    expect(pageButtons()).toEqual(['1', '2', '3', '4', '10']);
    expect(screen.getByTestId('table-gap-end')).toHaveTextContent('…');
    await userEvent.click(screen.getByTestId('table-page-4'));
    await userEvent.click(screen.getByTestId('table-page-5'));
    expect(pageButtons()).toEqual(['1', '4', '5', '6', '10']);
    expect(screen.getByTestId('table-gap-start')).toBeInTheDocument();
    expect(screen.getByTestId('table-page-5')).toHaveAttribute('aria-current', 'page');
    expect(names()[0]).toBe('Raum 41');
  });

  it('keeps the first item of the page visible when the page size changes', async () => {
    render(<ClientTable columns={columns} rows={units(100)} rowKey={rowKey} />);
    await userEvent.click(screen.getByTestId('table-page-3'));
    expect(names()[0]).toBe('Raum 21');
    await userEvent.selectOptions(screen.getByLabelText('Einträge pro Seite'), '20');
    expect(screen.getByTestId('table-page-2')).toHaveAttribute('aria-current', 'page');
    expect(names()).toContain('Raum 21');
    await userEvent.selectOptions(screen.getByLabelText('Einträge pro Seite'), '5');
    expect(screen.getByTestId('table-page-5')).toHaveAttribute('aria-current', 'page');
    expect(names()[0]).toBe('Raum 21');
  });

  it('enables previous and next only when there is a previous or next page', async () => {
    render(<ClientTable columns={columns} rows={units(15)} rowKey={rowKey} />);
    expect(screen.getByTestId('table-previous')).toBeDisabled();
    expect(screen.getByTestId('table-next')).toBeEnabled();
    await userEvent.click(screen.getByTestId('table-next'));
    expect(names()[0]).toBe('Raum 11');
    expect(screen.getByTestId('table-previous')).toBeEnabled();
    expect(screen.getByTestId('table-next')).toBeDisabled();
    await userEvent.click(screen.getByTestId('table-previous'));
    expect(names()[0]).toBe('Raum 1');
  });

  it('disables every page button and the size choice while loading', () => {
    serverTable({ loading: true, data: { results: units(10), count: 95, page: 5, size: 10 } });
    for (const id of ['previous', 'next', 'page-1', 'page-5', 'page-10', 'page-size']) {
      expect(screen.getByTestId(`table-${id}`)).toBeDisabled();
    }
  });

  it('disables every page button when the table is disabled', () => {
    serverTable({ disabled: true, data: { results: units(10), count: 95, page: 5, size: 10 } });
    for (const id of ['previous', 'next', 'page-1', 'page-4', 'page-10']) {
      expect(screen.getByTestId(`table-${id}`)).toBeDisabled();
    }
  });

  it('asks the server for other pages and sizes in server mode', async () => {
    const { onPageChange, onSizeChange } = serverTable({
      data: { results: units(10), count: 95, page: 3, size: 10 },
    });
    expect(screen.getByTestId('table-range')).toHaveTextContent('21–30 von 95');
    await userEvent.click(screen.getByTestId('table-page-10'));
    expect(onPageChange).toHaveBeenCalledWith(10);
    await userEvent.click(screen.getByTestId('table-next'));
    expect(onPageChange).toHaveBeenLastCalledWith(4);
    await userEvent.selectOptions(screen.getByLabelText('Einträge pro Seite'), '20');
    expect(onSizeChange).toHaveBeenCalledWith(20, 2);
  });
});
