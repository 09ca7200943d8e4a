/**
 * The level below the report's scope: the company's buildings or a building's rooms, one row
 * each, sortable, a name leading to that row's own report, the occupants' "zu warm" / "zu kalt"
 * beside the comfort figures. On a phone only the name, the room
 * mean and the share below comfort stay; the table scrolls inside its own frame if still too wide.
 */
import type { ReportRow } from '@heizplan/contracts/reports';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ClientTable } from '../../../components/ui/client-table.tsx';
import type { TableColumn } from '../../../components/ui/table.tsx';
import { useReportFormat } from '../report-format.ts';

export function ReportRowsTable({
  rows,
  rowLink,
}: {
  rows: ReportRow[];
  /** The address search of a row's report. */
  rowLink: (row: ReportRow) => string;
}) {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const buildings = rows.some((row) => row.kind === 'building');
  const columns: TableColumn<ReportRow>[] = [
    {
      key: 'name',
      label: t('rows.name'),
      sortable: true,
      wrap: true,
      render: (row) => (
        <Link
          to={{ search: rowLink(row) }}
          aria-label={t('rows.open', { name: row.name })}
          className="font-medium text-brand-700 underline-offset-2 hover:underline"
          data-testid={`report-row-link-${row.id}`}
        >
          {row.name}
        </Link>
      ),
    },
    ...(buildings
      ? [
          {
            key: 'rooms',
            label: t('rows.rooms'),
            sortable: true,
            align: 'right',
            minScreen: 'sm',
            render: (row) => format.count(row.rooms),
          } satisfies TableColumn<ReportRow>,
        ]
      : []),
    {
      key: 'roomMean',
      label: t('rows.roomMean'),
      sortable: true,
      align: 'right',
      render: (row) => format.celsius(row.roomMean),
    },
    {
      key: 'occupiedHours',
      label: t('rows.occupiedHours'),
      sortable: true,
      align: 'right',
      minScreen: 'md',
      render: (row) => format.hours(row.occupiedHours),
    },
    {
      key: 'belowComfortShare',
      label: t('rows.belowComfort'),
      sortable: true,
      align: 'right',
      render: (row) => format.share(row.belowComfortShare),
    },
    {
      key: 'tooWarm',
      label: t('rows.tooWarm'),
      sortable: true,
      align: 'right',
      // Wide screens only: at 1280 px the table would scroll; the comfort card and the
      // findings name the occupants' feedback on every screen.
      minScreen: '2xl',
      render: (row) => format.count(row.tooWarm),
    },
    {
      key: 'tooCold',
      label: t('rows.tooCold'),
      sortable: true,
      align: 'right',
      // Wide screens only: at 1280 px the table would scroll; the comfort card and the
      // findings name the occupants' feedback on every screen.
      minScreen: '2xl',
      render: (row) => format.count(row.tooCold),
    },
    {
      key: 'heatingHours',
      label: t('rows.heatingHours'),
      sortable: true,
      align: 'right',
      minScreen: 'md',
      render: (row) => format.hours(row.heatingHours),
    },
    {
      key: 'setbackHours',
      label: t('rows.setbackHours'),
      sortable: true,
      align: 'right',
      minScreen: 'lg',
      render: (row) => format.hours(row.setbackHours),
    },
    {
      key: 'windowHeatingHours',
      label: t('rows.windowHeating'),
      sortable: true,
      align: 'right',
      minScreen: 'lg',
      render: (row) => format.hours(row.windowHeatingHours),
    },
  ];
  return (
    <section className="flex min-w-0 flex-col gap-2" aria-labelledby="report-rows-title">
      <h2 id="report-rows-title" className="text-base font-semibold">
        {buildings ? t('rows.buildings') : t('rows.units')}
      </h2>
      <ClientTable
        columns={columns}
        rows={rows}
        rowKey={(row) => `${row.kind}-${row.id}`}
        label={buildings ? t('rows.buildings') : t('rows.units')}
        testid="report-rows"
      />
    </section>
  );
}
