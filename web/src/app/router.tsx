/**
 * The route table of spec §2, rendered by React Router's declarative `useRoutes` (its data
 * router would add ≈ 16 KiB gzipped to the first load for features the app does not use;
 * decision 0045). Every screen is a chunk of its own, loaded when a route is first visited
 * (`screen` below, React.lazy), so the first load carries only the shell; the maintenance and
 * 404 pages stay in the main chunk because they are what shows when the server (and so its
 * chunks) is in trouble. Route-level error boundaries show `RouteErrorScreen` instead of a blank
 * page: one around everything, one inside the shell so its navigation stays. A screen that
 * combines several features lives in `app/routes/`; a feature's own screens stay in its folder,
 * since features do not import each other (feature-boundaries.test.ts).
 */
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Navigate, Outlet, type RouteObject, useLocation, useRoutes } from 'react-router';
import { Spinner } from '../components/ui/spinner.tsx';
import { AuthGate } from '../features/auth/components/auth-gate.tsx';
import { MaintenancePage } from '../features/errors/routes/maintenance-page.tsx';
import { NotFoundPage } from '../features/errors/routes/not-found-page.tsx';
import { chunkReload, isChunkLoadError } from '../lib/chunk-load.ts';
import { errorReporter } from '../lib/error-reporting.ts';
import { RouteAnnouncer } from '../lib/page-title.tsx';
import { MainGuard, SetupGuard } from './guard-routes.tsx';
import { loadNamespaces } from './i18n.ts';
import { AppShell } from './layout/app-shell.tsx';
import { RouteErrorScreen } from './route-error-screen.tsx';

/**
 * A route whose component is loaded on navigation, together with the translation namespaces
 * its screen uses beyond the shell's (a namespace left out is fetched when the screen asks for
 * it, one round trip later); a failed chunk load reloads once (lib/chunk-load.ts). React Router
 * starts navigations as transitions, so the previous screen stays until the next one is there.
 */
function screen(
  load: () => Promise<ComponentType>,
  namespaces: readonly string[] = [],
): Pick<RouteObject, 'element'> {
  const Screen = lazy(async () => {
    const [Component] = await Promise.all([chunkReload.load(load), loadNamespaces(namespaces)]);
    return { default: Component };
  });
  return { element: <Screen /> };
}

/** Shown while the first screen's chunk or its texts load. */
const loading = (
  <div className="flex min-h-full items-center justify-center p-6" data-testid="screen-loading">
    <Spinner loading size="lg" />
  </div>
);

/** Render errors go to the error reporting; a failed chunk was reported when it failed. */
function reportRenderError(error: unknown, info: { componentStack?: string | null }) {
  if (!isChunkLoadError(error)) errorReporter.report(error, 'render', info.componentStack ?? undefined);
}

/**
 * The routes below it render inside an error boundary (RouteErrorScreen, reset when the address
 * changes) and a Suspense boundary showing `fallback` while a screen's chunk or texts load.
 */
function RouteBoundary({ fallback }: { fallback: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary FallbackComponent={RouteErrorScreen} resetKeys={[pathname]} onError={reportRenderError}>
      <Suspense fallback={fallback}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}

/** Shown inside the shell while a screen loads: the navigation stays. */
const screenLoading = (
  <div className="flex justify-center p-16" data-testid="screen-loading">
    <Spinner loading size="lg" />
  </div>
);

/**
 * The widget catalogue is a development tool: a production build answers /dev/ui with the 404
 * page, and because Vite replaces `import.meta.env.DEV` with `false` there, the import below is
 * dropped and none of the catalogue's code ships.
 */
const developmentRoutes: RouteObject[] = import.meta.env.DEV
  ? [
      {
        path: '/dev/ui',
        ...screen(
          async () => (await import('../features/dev-ui/routes/ui-catalogue-page.tsx')).UiCataloguePage,
          ['dev-ui'],
        ),
      },
    ]
  : [];

/** The screens behind the main guard (spec §2 "Route guards"). */
const guardedRoutes: RouteObject[] = [
  {
    path: 'units',
    ...screen(
      async () => (await import('./routes/units-page.tsx')).UnitsPage,
      ['units', 'graphs', 'qr', 'problems', 'getting-started'],
    ),
  },
  {
    path: 'units/qr-sheet',
    ...screen(
      async () => (await import('../features/qr-codes/routes/qr-sheet-page.tsx')).QrSheetPage,
      ['qr'],
    ),
  },
  {
    path: 'units/:unitId',
    ...screen(
      async () => (await import('./routes/unit-detail-page.tsx')).UnitDetailPage,
      ['units', 'plans', 'graphs', 'qr', 'problems', 'feedback'],
    ),
  },
  {
    path: 'units/:unitId/log',
    ...screen(
      async () => (await import('../features/units/routes/unit-log-page.tsx')).UnitLogPage,
      ['units'],
    ),
  },
  {
    path: 'groups',
    ...screen(
      async () => (await import('./routes/groups-page.tsx')).GroupsPage,
      ['groups', 'plans', 'problems'],
    ),
  },
  {
    path: 'buildings',
    ...screen(
      async () => (await import('../features/buildings/routes/buildings-page.tsx')).BuildingsPage,
      ['buildings', 'problems'],
    ),
  },
  {
    path: 'heating-circuits',
    ...screen(
      async () =>
        (await import('../features/heating-circuits/routes/heating-circuits-page.tsx')).HeatingCircuitsPage,
      ['circuits', 'problems'],
    ),
  },
  {
    path: 'events',
    ...screen(
      async () => (await import('../features/events/routes/events-page.tsx')).EventsPage,
      ['events', 'problems'],
    ),
  },
  {
    path: 'closures',
    ...screen(
      async () => (await import('../features/closures/routes/closures-page.tsx')).ClosuresPage,
      ['closures', 'problems'],
    ),
  },
  {
    path: 'booking-feeds',
    ...screen(
      async () => (await import('../features/booking-feeds/routes/booking-feeds-page.tsx')).BookingFeedsPage,
      ['booking-feeds', 'problems'],
    ),
  },
  {
    path: 'devices',
    ...screen(async () => (await import('./routes/devices-page.tsx')).DevicesPage, ['devices', 'problems']),
  },
  {
    path: 'device-profiles',
    ...screen(
      async () =>
        (await import('../features/device-profiles/routes/device-profiles-page.tsx')).DeviceProfilesPage,
      ['device-profiles', 'problems'],
    ),
  },
  {
    path: 'imports',
    ...screen(
      async () => (await import('./routes/imports-page.tsx')).ImportsPage,
      ['imports', 'devices', 'problems'],
    ),
  },
  {
    path: 'gateways',
    ...screen(
      async () => (await import('../features/gateways/routes/gateways-page.tsx')).GatewaysPage,
      ['gateways', 'problems'],
    ),
  },
  {
    path: 'alerts',
    ...screen(
      async () => (await import('../features/alerts/routes/alerts-page.tsx')).AlertsPage,
      ['alerts', 'problems'],
    ),
  },
  {
    path: 'reports',
    ...screen(
      async () => (await import('../features/reports/routes/reports-page.tsx')).ReportsPage,
      ['reports', 'problems'],
    ),
  },
  {
    path: 'subSetup',
    ...screen(async () => (await import('../features/billing/routes/sub-setup-page.tsx')).SubSetupPage),
  },
  {
    path: 'settings',
    ...screen(async () => (await import('./routes/settings-layout.tsx')).SettingsLayout, ['settings']),
    children: [
      { index: true, element: <Navigate to="/settings/general" replace /> },
      {
        path: 'general',
        ...screen(
          async () =>
            (await import('../features/settings/routes/settings-general-page.tsx')).SettingsGeneralPage,
          ['settings', 'problems'],
        ),
      },
      {
        path: 'language',
        ...screen(
          async () =>
            (await import('../features/settings/routes/settings-language-page.tsx')).SettingsLanguagePage,
          ['settings'],
        ),
      },
      {
        path: 'help',
        ...screen(async () => (await import('./routes/help-page.tsx')).HelpPage, ['help', 'getting-started']),
      },
      {
        path: 'help/changelog',
        ...screen(
          async () => (await import('../features/help/routes/changelog-page.tsx')).ChangelogPage,
          ['help'],
        ),
      },
      {
        path: 'billing',
        ...screen(
          async () => (await import('../features/billing/routes/billing-page.tsx')).BillingPage,
          ['problems'],
        ),
      },
      {
        path: 'team',
        ...screen(
          async () => (await import('../features/team/routes/team-page.tsx')).TeamPage,
          ['team', 'problems'],
        ),
      },
      {
        path: 'company',
        ...screen(
          async () =>
            (await import('../features/settings/routes/settings-company-page.tsx')).SettingsCompanyPage,
          ['problems'],
        ),
      },
      {
        path: 'api',
        ...screen(
          async () => (await import('../features/api-tokens/routes/api-tokens-page.tsx')).ApiTokensPage,
          ['api-tokens', 'problems'],
        ),
      },
      {
        path: 'audit',
        ...screen(async () => (await import('../features/audit/routes/audit-page.tsx')).AuditPage, ['audit']),
      },
    ],
  },
];

export const routes: RouteObject[] = [
  {
    element: (
      <>
        <RouteBoundary fallback={loading} />
        <RouteAnnouncer />
      </>
    ),
    children: [
      { path: '/maintenance', element: <MaintenancePage /> },
      ...developmentRoutes,
      {
        path: '/logout',
        ...screen(async () => (await import('../features/auth/routes/logout-page.tsx')).LogoutPage),
      },
      {
        // Everything below needs a signed-in user; the gate also completes login returns at `/`.
        element: <AuthGate />,
        children: [
          { path: '/setup', element: <Navigate to="/setup/1" replace /> },
          {
            path: '/setup/:step',
            element: <SetupGuard />,
            children: [
              {
                index: true,
                ...screen(
                  async () => (await import('./routes/setup-page.tsx')).SetupPage,
                  ['setup', 'problems'],
                ),
              },
            ],
          },
          {
            // Decision 0078: no navigation until a second factor the company requires is set up.
            path: '/second-factor',
            ...screen(
              async () =>
                (await import('../features/settings/routes/second-factor-required-page.tsx'))
                  .SecondFactorRequiredPage,
              ['settings', 'problems'],
            ),
          },
          {
            path: '/success',
            ...screen(async () => (await import('../features/billing/routes/success-page.tsx')).SuccessPage),
          },
          {
            path: '/',
            element: <AppShell />,
            children: [
              {
                // Inside the shell: a failed screen keeps the navigation around its error.
                element: <RouteBoundary fallback={screenLoading} />,
                children: [
                  { index: true, element: <Navigate to="/units" replace /> },
                  {
                    path: 'assign',
                    ...screen(
                      async () => (await import('./routes/assign-page.tsx')).AssignPage,
                      ['assign', 'devices', 'problems'],
                    ),
                  },
                  // Spec §2: the main guard runs on these screens.
                  { element: <MainGuard />, children: guardedRoutes },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** The route table, rendered inside a router (`BrowserRouter` in main.tsx). */
export function AppRoutes() {
  return useRoutes(routes);
}
