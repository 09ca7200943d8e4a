/**
 * The next 14 days' bookings of a feed, as its last successful fetch found them: title, day and
 * times in the company's time zone ("Fr., 27.11.2026, 19:00–21:00"), and whether each heats —
 * and if not, why: shorter than the feed's minimum, or its title contains the feed's keyword. A
 * stale feed says its bookings do not count at the moment.
 */
import type { Booking, BookingFeed } from '@heizplan/contracts/booking-feeds';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatTime } from '../../../lib/format.ts';
import { useBookings } from '../api/list-bookings.ts';

/** Why a booking does not heat, from the feed's rules (the API says only that it does not). */
export function reasonsOf(booking: Booking, feed: Pick<BookingFeed, 'minDurationMinutes' | 'ignoreKeyword'>) {
  if (booking.heats) return [];
  const reasons: Array<'keyword' | 'tooShort'> = [];
  const keyword = feed.ignoreKeyword.trim().toLocaleLowerCase();
  if (keyword && booking.title.toLocaleLowerCase().includes(keyword)) reasons.push('keyword');
  const minutes = (Date.parse(booking.end) - Date.parse(booking.start)) / 60_000;
  if (minutes < feed.minDurationMinutes) reasons.push('tooShort');
  return reasons;
}

/** "Fr., 27.11.2026, 19:00–21:00"; a booking over midnight names both days. */
export function bookingPeriod(booking: Booking, locale: string, timeZone: string): string {
  const day = new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone,
  });
  const [startDay, endDay] = [day.format(new Date(booking.start)), day.format(new Date(booking.end))];
  const [from, to] = [formatTime(booking.start, locale, timeZone), formatTime(booking.end, locale, timeZone)];
  return startDay === endDay ? `${startDay}, ${from}–${to}` : `${startDay}, ${from} – ${endDay}, ${to}`;
}

export function BookingsDialog({
  feed,
  zone,
  onOpenChange,
}: {
  feed: BookingFeed;
  zone: string;
  onOpenChange: (open: boolean) => void;
}) {
  const { t, i18n } = useTranslation('booking-feeds');
  const bookings = useBookings(feed.id);
  const results = bookings.data?.results ?? [];

  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title={t('bookings.title', { name: feed.name })}
      description={t('bookings.description', { room: feed.unit.name })}
      footer={
        <DialogClose>
          <Button variant="secondary" testid="bookings-close">
            {t('bookings.close')}
          </Button>
        </DialogClose>
      }
      testid="bookings-dialog"
    >
      {feed.status === 'stale' && (
        <p className="mb-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900" data-testid="bookings-stale">
          {t('bookings.stale')}
        </p>
      )}
      {bookings.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner loading testid="bookings-loading" />
        </div>
      ) : bookings.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-red-800" data-testid="bookings-error">
          {t('bookings.loadError')}
        </p>
      ) : results.length === 0 ? (
        <p className="text-sm text-stone-700" data-testid="bookings-empty">
          {feed.status === 'pending' ? t('bookings.notYet') : t('bookings.empty')}
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-stone-200" data-testid="bookings-list">
          {results.map((booking) => {
            const reasons = reasonsOf(booking, feed);
            return (
              <li
                key={booking.id}
                className="flex flex-col gap-0.5 py-2"
                data-testid={`booking-${booking.id}`}
              >
                <span className="font-medium break-words text-ink">
                  {booking.title || t('bookings.untitled')}
                </span>
                <span className="text-sm text-stone-700 tabular-nums">
                  {bookingPeriod(booking, i18n.language, zone)}
                </span>
                <span
                  className={`text-sm ${booking.heats ? 'text-emerald-800' : 'text-stone-600'}`}
                  data-testid={`booking-heats-${booking.id}`}
                >
                  {booking.heats
                    ? t('bookings.heats')
                    : reasons.length === 0
                      ? t('bookings.notHeating')
                      : t('bookings.notHeatingBecause', {
                          reasons: reasons
                            .map((r) =>
                              t(`bookings.reasons.${r}`, {
                                minutes: feed.minDurationMinutes,
                                keyword: feed.ignoreKeyword,
                              }),
                            )
                            .join(t('bookings.and')),
                        })}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Dialog>
  );
}
