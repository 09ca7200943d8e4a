/** Renders a route tree in memory with the app's providers, for component tests. */
import { render } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { Providers, queryClient } from '../app/providers.tsx';
import type { AuthSession } from '../features/auth/auth-session.ts';

export interface RenderRoutesOptions {
  /** Sign-in session for screens behind the auth gate (see features/auth/test-manager.ts). */
  session?: AuthSession;
}

export function renderRoutes(routes: RouteObject[], path: string, options: RenderRoutesOptions = {}) {
  // The app's query cache is a module singleton: start every render from an empty one.
  queryClient.clear();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  return {
    router,
    ...render(
      <Providers session={options.session}>
        <RouterProvider router={router} />
      </Providers>,
    ),
  };
}
