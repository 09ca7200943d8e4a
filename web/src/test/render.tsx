/** Renders a route tree in memory with the app's providers, for component tests. */
import { act, render } from '@testing-library/react';
import {
  type Location,
  MemoryRouter,
  type RouteObject,
  useLocation,
  useNavigate,
  useRoutes,
} from 'react-router';
import { Providers, queryClient } from '../app/providers.tsx';
import type { AuthSession } from '../features/auth/auth-session.ts';
import type { Clock } from '../lib/clock.tsx';

export interface RenderRoutesOptions {
  /** Sign-in session for screens behind the auth gate (see features/auth/test-manager.ts). */
  session?: AuthSession;
  /** What the screen reads as now (test/clock.ts `fixedClock`); the system clock by default. */
  clock?: Clock;
}

/** Where the rendered app is, and a way to send it elsewhere as a link would. */
export interface TestRouter {
  location(): Location;
  navigate(to: string): Promise<void>;
}

export function renderRoutes(routes: RouteObject[], path: string, options: RenderRoutesOptions = {}) {
  // The app's query cache is a module singleton: start every render from an empty one.
  queryClient.clear();
  let current: Location | null = null;
  let go: ((to: string) => void) | null = null;
  function Probe() {
    current = useLocation();
    const navigate = useNavigate();
    go = (to) => void navigate(to);
    return useRoutes(routes);
  }
  const router: TestRouter = {
    location: () => {
      if (!current) throw new Error('the routes have not rendered yet');
      return current;
    },
    navigate: async (to) => {
      await act(async () => go?.(to));
    },
  };
  return {
    router,
    ...render(
      <Providers session={options.session} clock={options.clock}>
        <MemoryRouter initialEntries={[path]}>
          <Probe />
        </MemoryRouter>
      </Providers>,
    ),
  };
}
