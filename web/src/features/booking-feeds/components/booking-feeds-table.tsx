/**
 * List of the booking feeds: name (and kind), room with its linked rooms, status as a badge
 * (not fetched yet / up to date / stale, with the last error of a stale one in the user's language
 * from its code — the server's English only for a code this web does not know), last fetch as a
 * relative time with the bookings it found. Actions per row: show the bookings (every member),
 * edit, fetch now (with its progress) and delete (members who operate). The UI kit's Table,
 * paged by the server; on a phone the name column also shows room and status, and the last
 * fetch shows from the tablet width up.
 */
import type { BookingFeed, BookingFeedStatus } from '@heizplan/contracts/booking-feeds';
import { useTranslation } from 'react-i18next';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Table, type TableColumn, type TablePage } from '../../../components/ui/table.tsx';
import { localParams } from '../../../lib/problem-message.ts';

export interface BookingFeedsTableProps {
  data: TablePage<BookingFeed>;
  loading: boolean;
  /** The text of an empty page (a filtered list with nothing in it). */
  emptyText?: string;
  onBookings: (feed: BookingFeed) => void;
  /** Present for members who operate. */
  onEdit?: (feed: BookingFeed) => void;
  onSync?: (feed: BookingFeed) => void;
  onDelete?: (feed: BookingFeed) => void;
  /** The feed being fetched now, if any. */
  syncingId: string | null;
  onPageChange: (page: number) => void;
  onSizeChange: (size: number, page: number) => void;
}

const statusClass: Record<BookingFeedStatus, string> = {
  pending: 'bg-stone-100 text-stone-700',
  ok: 'bg-emerald-50 text-emerald-800',
  stale: 'bg-red-50 text-red-800',
};

/** Linked room names listed in a row; the others are counted. */
const MAX_LINKED = 2;

export function BookingFeedsTable({
  data,
  loading,
  emptyText,
  onBookings,
  onEdit,
  onSync,
  onDelete,
  syncingId,
  onPageChange,
  onSizeChange,
}: BookingFeedsTableProps) {
  const { t, i18n } = useTranslation('booking-feeds');

  // A feed that failed before the server sent codes, or with a code newer than this web, has
  // only the English sentence.
  const errorText = (feed: BookingFeed) =>
    feed.lastErrorCode && i18n.exists(`booking-feeds:errors.${feed.lastErrorCode}`)
      ? t(`errors.${feed.lastErrorCode}`, localParams(feed.lastErrorParams ?? {}, i18n.language))
      : feed.lastError;

  const status = (feed: BookingFeed, testid: string) => (
    <span className="flex flex-col items-start gap-1">
      <span className={`rounded px-1.5 py-0.5 text-xs ${statusClass[feed.status]}`} data-testid={testid}>
        {t(`status.${feed.status}`)}
      </span>
      {feed.status === 'stale' && <span className="text-xs text-stone-700">{t('staleHint')}</span>}
    </span>
  );
  const room = (feed: BookingFeed, testid: string) => {
    const names = feed.linkedUnits.map((u) => u.name);
    const shown = names.slice(0, MAX_LINKED).join(', ');
    const more = names.length - MAX_LINKED;
    return (
      <span className="flex flex-col gap-0.5" data-testid={testid}>
        <span>
          <span className="sm:hidden">{t('columns.room')}: </span>
          {feed.unit.name}
        </span>
        {names.length > 0 && (
          <span className="text-xs text-stone-600" title={names.join(', ')}>
            {more > 0 ? t('linked.more', { names: shown, count: more }) : t('linked.some', { names: shown })}
          </span>
        )}
      </span>
    );
  };

  const columns: TableColumn<BookingFeed>[] = [
    {
      key: 'name',
      label: t('columns.name'),
      wrap: true,
      render: (feed) => (
        <span className="flex flex-col items-start gap-1">
          <span className="font-medium text-ink" data-testid={`booking-feed-name-${feed.id}`}>
            {feed.name}
          </span>
          <span className="text-xs text-stone-600">{t(`kinds.${feed.kind}.title`)}</span>
          {/* On a phone the room and status columns are hidden: they show here instead. */}
          <span className="flex flex-col items-start gap-1 text-xs sm:hidden">
            {room(feed, `booking-feed-room-phone-${feed.id}`)}
            {status(feed, `booking-feed-status-phone-${feed.id}`)}
          </span>
        </span>
      ),
    },
    {
      key: 'room',
      label: t('columns.room'),
      wrap: true,
      minScreen: 'sm',
      render: (feed) => room(feed, `booking-feed-room-${feed.id}`),
    },
    {
      key: 'status',
      label: t('columns.status'),
      wrap: true,
      minScreen: 'sm',
      render: (feed) => status(feed, `booking-feed-status-${feed.id}`),
    },
    {
      key: 'lastSync',
      label: t('columns.lastSync'),
      wrap: true,
      minScreen: 'md',
      render: (feed) => (
        <span className="flex flex-col items-start gap-0.5" data-testid={`booking-feed-sync-${feed.id}`}>
          <RelativeTime
            iso={feed.lastSyncAt}
            emptyText={t('neverSynced')}
            testid={`booking-feed-last-sync-${feed.id}`}
          />
          {feed.lastSuccessAt && (
            <span className="text-xs text-stone-600">{t('bookingCount', { count: feed.bookingCount })}</span>
          )}
          {feed.status === 'stale' && feed.lastError && (
            <span
              className="max-w-64 text-xs break-words text-red-800"
              data-testid={`booking-feed-error-${feed.id}`}
            >
              {t('lastError', { error: errorText(feed) })}
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'actions',
      label: t('columns.actions'),
      render: (feed) => (
        // Two by two from the laptop width up, stacked below: four actions side by side would
        // squeeze the other columns.
        <span className="grid justify-items-start gap-1 lg:grid-cols-2">
          {[
            {
              label: t('actions.bookings'),
              ariaLabel: t('actions.bookingsLabel', { name: feed.name }),
              onClick: () => onBookings(feed),
              testid: `booking-feed-bookings-${feed.id}`,
            },
            onSync && {
              label: syncingId === feed.id ? t('actions.syncing') : t('actions.sync'),
              ariaLabel: t('actions.syncLabel', { name: feed.name }),
              onClick: () => onSync(feed),
              loading: syncingId === feed.id,
              testid: `booking-feed-sync-now-${feed.id}`,
            },
            onEdit && {
              label: t('actions.edit'),
              ariaLabel: t('actions.editLabel', { name: feed.name }),
              onClick: () => onEdit(feed),
              testid: `booking-feed-edit-${feed.id}`,
            },
            onDelete && {
              label: t('actions.delete'),
              ariaLabel: t('actions.deleteLabel', { name: feed.name }),
              onClick: () => onDelete(feed),
              testid: `booking-feed-delete-${feed.id}`,
            },
          ].map(
            (action) =>
              action && (
                <Button
                  key={action.testid}
                  variant="ghost"
                  size="sm"
                  onClick={action.onClick}
                  loading={'loading' in action ? action.loading : false}
                  aria-label={action.ariaLabel}
                  testid={action.testid}
                >
                  {action.label}
                </Button>
              ),
          )}
        </span>
      ),
    },
  ];
  return (
    <Table
      label={t('title')}
      columns={columns}
      data={data}
      rowKey={(feed) => feed.id}
      sort={{ key: 'name', order: 'asc' }}
      onSortChange={() => {}}
      onPageChange={onPageChange}
      onSizeChange={onSizeChange}
      loading={loading}
      emptyText={emptyText}
      testid="booking-feeds-table"
    />
  );
}
