/**
 * A link that looks like a secondary button: the way from a list to a screen of its own
 * (the import of devices or units, device profiles). The caller decides who sees it.
 */
import { Link } from 'react-router';

export function LinkButton({ to, label, testid }: { to: string; label: string; testid: string }) {
  return (
    <Link
      to={to}
      className="inline-flex h-10 items-center justify-center whitespace-nowrap rounded-lg border border-stone-300 bg-white px-4 text-sm font-medium text-ink hover:bg-stone-100"
      data-testid={testid}
    >
      {label}
    </Link>
  );
}
