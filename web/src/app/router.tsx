/**
 * The route table of spec §2. Screens are loaded lazily, one chunk per feature; a screen
 * still being built shows `PlaceholderPage` with its translated title.
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AssignPage } from '../features/assign/routes/assign-page.tsx';
import { AuthGate } from '../features/auth/components/auth-gate.tsx';
import { LogoutPage } from '../features/auth/routes/logout-page.tsx';
import { UiCataloguePage } from '../features/dev-ui/routes/ui-catalogue-page.tsx';
import { DevicesPage } from '../features/devices/routes/devices-page.tsx';
import { MaintenancePage } from '../features/errors/routes/maintenance-page.tsx';
import { NotFoundPage } from '../features/errors/routes/not-found-page.tsx';
import { EventsPage } from '../features/events/routes/events-page.tsx';
import { GatewaysPage } from '../features/gateways/routes/gateways-page.tsx';
import { GroupsPage } from '../features/groups/routes/groups-page.tsx';
import { QrSheetPage } from '../features/qr-codes/routes/qr-sheet-page.tsx';
import { SettingsLayout } from '../features/settings/components/settings-layout.tsx';
import { SettingsCompanyPage } from '../features/settings/routes/settings-company-page.tsx';
import { SettingsGeneralPage } from '../features/settings/routes/settings-general-page.tsx';
import { SettingsLanguagePage } from '../features/settings/routes/settings-language-page.tsx';
import { SetupPage } from '../features/setup/routes/setup-page.tsx';
import { UnitDetailPage } from '../features/units/routes/unit-detail-page.tsx';
import { UnitLogPage } from '../features/units/routes/unit-log-page.tsx';
import { UnitsPage } from '../features/units/routes/units-page.tsx';
import { MainGuard, SetupGuard } from './guard-routes.tsx';
import { AppShell } from './layout/app-shell.tsx';
import { PlaceholderPage } from './placeholder-page.tsx';

export const routes: RouteObject[] = [
  { path: '/maintenance', element: <MaintenancePage /> },
  { path: '/dev/ui', element: <UiCataloguePage /> },
  { path: '/logout', element: <LogoutPage /> },
  {
    // Everything below needs a signed-in user; the gate also completes login returns at `/`.
    element: <AuthGate />,
    children: [
      { path: '/setup', element: <Navigate to="/setup/1" replace /> },
      {
        path: '/setup/:step',
        element: (
          <SetupGuard>
            <SetupPage />
          </SetupGuard>
        ),
      },
      { path: '/success', element: <PlaceholderPage titleKey="pages.success" /> },
      {
        path: '/',
        element: <AppShell />,
        children: [
          { index: true, element: <Navigate to="/units" replace /> },
          { path: 'assign', element: <AssignPage /> },
          {
            // Spec §2: the main guard runs on these screens.
            element: <MainGuard />,
            children: [
              { path: 'units', element: <UnitsPage /> },
              { path: 'units/qr-sheet', element: <QrSheetPage /> },
              { path: 'units/:unitId', element: <UnitDetailPage /> },
              { path: 'units/:unitId/log', element: <UnitLogPage /> },
              { path: 'groups', element: <GroupsPage /> },
              { path: 'events', element: <EventsPage /> },
              { path: 'devices', element: <DevicesPage /> },
              { path: 'gateways', element: <GatewaysPage /> },
              { path: 'subSetup', element: <PlaceholderPage titleKey="pages.subSetup" /> },
              {
                path: 'settings',
                element: <SettingsLayout />,
                children: [
                  { index: true, element: <Navigate to="/settings/general" replace /> },
                  { path: 'general', element: <SettingsGeneralPage /> },
                  { path: 'language', element: <SettingsLanguagePage /> },
                  { path: 'help', element: <PlaceholderPage titleKey="pages.settingsHelp" /> },
                  { path: 'billing', element: <PlaceholderPage titleKey="pages.settingsBilling" /> },
                  { path: 'team', element: <PlaceholderPage titleKey="pages.settingsTeam" /> },
                  { path: 'company', element: <SettingsCompanyPage /> },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

export const createRouter = () => createBrowserRouter(routes);
