/**
 * `/booking-feeds` (decision 0053): the company's booking calendars — a room's ICS or CalDAV
 * calendar whose bookings heat the room — with their room, status, last fetch and the bookings
 * found; an empty list explains what a booking calendar is and where its address comes from.
 * Once the company has buildings, a building filter (starting at the navigation's current
 * building, or at a link's `?building=`) lists the calendars of its rooms (own or linked).
 * Every member sees them and their bookings; members who operate create, edit, fetch now and
 * delete them (a confirmation first). A fetch answers with its outcome as a toast.
 */
import type { BookingFeed } from '@heizplan/contracts/booking-feeds';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BuildingFilterSelects } from '../../../components/building-filter-selects.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { ListEmptyState } from '../../../components/ui/list-empty-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';
import { useBuildingFilter } from '../../../lib/heating/current-building.ts';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useBookingFeeds, useChangeBookingFeed } from '../api/booking-feeds.ts';
import { useSyncBookingFeed } from '../api/sync-booking-feed.ts';
import { type BookingFeedForm, emptyForm, formOf } from '../booking-feed-form.ts';
import { BookingFeedDialog } from '../components/booking-feed-dialog.tsx';
import { BookingFeedsTable } from '../components/booking-feeds-table.tsx';
import { BookingsDialog } from '../components/bookings-dialog.tsx';

interface DialogState {
  feed: BookingFeed | null;
  initial: BookingFeedForm;
}

export function BookingFeedsPage() {
  const { t } = useTranslation('booking-feeds');
  usePageTitle(t('title'));
  const { toast } = useToast();
  const problems = useProblemMessage();
  const company = useCompany();
  const canOperate = useCan('operate');
  const zone = company.data?.time_zone ?? 'Europe/Berlin';
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [showing, setShowing] = useState<BookingFeed | null>(null);
  const [deleting, setDeleting] = useState<BookingFeed | null>(null);
  const [search] = useSearchParams();
  const building = useBuildingFilter(() => setPage(1), search.get('building'));
  const feeds = useBookingFeeds(
    { page, size, ...(building.buildingId ? { buildingId: building.buildingId } : {}) },
    { enabled: !building.resolving },
  );
  const change = useChangeBookingFeed();
  const sync = useSyncBookingFeed();
  const syncingId = sync.isPending ? (sync.variables ?? null) : null;

  const openNew = () => setDialog({ feed: null, initial: emptyForm() });
  const openFeed = (feed: BookingFeed) => setDialog({ feed, initial: formOf(feed) });
  const syncNow = (feed: BookingFeed) =>
    sync.mutate(feed.id, {
      onSuccess: (result) =>
        result.status === 'ok'
          ? toast({
              type: 'success',
              title: t('toast.synced', { name: result.name }),
              description: t('bookingCount', { count: result.bookingCount }),
              testid: 'toast-booking-feed-synced',
            })
          : toast({
              type: 'error',
              title: t('toast.syncFailed', { name: result.name }),
              description: t('toast.syncFailedHint'),
              testid: 'toast-booking-feed-sync-failed',
            }),
      onError: (error) =>
        toast({
          type: 'error',
          title: t('toast.syncError', { name: feed.name }),
          description: problems.reason(error),
          testid: 'toast-booking-feed-sync-error',
        }),
    });
  const remove = async (feed: BookingFeed) => {
    try {
      await change.mutateAsync({ action: 'delete', feedId: feed.id });
      toast({ type: 'success', title: t('toast.deleted'), testid: 'toast-booking-feed-deleted' });
    } catch (error) {
      toast({
        type: 'error',
        title: t('toast.deleteError'),
        description: problems.reason(error),
        testid: 'toast-booking-feed-error',
      });
    }
  };

  return (
    <section className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {canOperate && (
          <Button onClick={openNew} testid="booking-feed-new">
            {t('new')}
          </Button>
        )}
      </div>
      <p className="max-w-3xl text-sm text-stone-700">{t('intro')}</p>
      {building.buildings.length > 0 && (
        <div className="w-full sm:w-72">
          <BuildingFilterSelects filter={building} testid="booking-feeds" />
        </div>
      )}
      {feeds.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner loading size="lg" testid="booking-feeds-loading" />
        </div>
      ) : feeds.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-800" data-testid="booking-feeds-error">
          {t('loadError')}
        </p>
      ) : feeds.data.count === 0 && !building.filtered ? (
        <ListEmptyState
          title={t('empty.title')}
          paragraphs={[t('empty.what'), t('empty.where'), t('empty.stale')]}
          create={canOperate ? { label: t('empty.create'), onClick: openNew } : undefined}
          readOnlyText={t('readOnlyRole')}
          testid="booking-feeds"
        />
      ) : (
        <BookingFeedsTable
          data={feeds.data}
          loading={feeds.isFetching && feeds.isPlaceholderData}
          emptyText={building.filtered ? t('emptyBuilding') : undefined}
          onBookings={setShowing}
          onEdit={canOperate ? openFeed : undefined}
          onSync={canOperate ? syncNow : undefined}
          onDelete={canOperate ? setDeleting : undefined}
          syncingId={syncingId}
          onPageChange={setPage}
          onSizeChange={(nextSize, nextPage) => {
            setSize(nextSize);
            setPage(nextPage);
          }}
        />
      )}
      {dialog && (
        <BookingFeedDialog
          open
          onOpenChange={(open) => {
            if (!open) setDialog(null);
          }}
          feed={dialog.feed}
          initial={dialog.initial}
        />
      )}
      {showing && (
        <BookingsDialog
          feed={showing}
          zone={zone}
          onOpenChange={(open) => {
            if (!open) setShowing(null);
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          open
          onOpenChange={(open) => {
            if (!open) setDeleting(null);
          }}
          title={t('confirmDelete.title')}
          confirmText={t('confirmDelete.confirm')}
          onConfirm={() => remove(deleting)}
          testid="booking-feed-delete-dialog"
        >
          <p>{t('confirmDelete.text', { name: deleting.name, room: deleting.unit.name })}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
