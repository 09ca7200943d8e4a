/**
 * The route table of spec §2. Screens are loaded lazily, one chunk per feature; a screen
 * still being built shows `PlaceholderPage` with its translated title.
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { UiCataloguePage } from '../features/dev-ui/routes/ui-catalogue-page.tsx';
import { MaintenancePage } from '../features/errors/routes/maintenance-page.tsx';
import { NotFoundPage } from '../features/errors/routes/not-found-page.tsx';
import { AppShell } from './layout/app-shell.tsx';
import { PlaceholderPage } from './placeholder-page.tsx';

export const routes: RouteObject[] = [
  { path: '/heating-view/:token', element: <PlaceholderPage titleKey="pages.heatingView" /> },
  { path: '/maintenance', element: <MaintenancePage /> },
  { path: '/dev/ui', element: <UiCataloguePage /> },
  { path: '/setup', element: <Navigate to="/setup/1" replace /> },
  { path: '/setup/:step', element: <PlaceholderPage titleKey="pages.setup" /> },
  { path: '/success', element: <PlaceholderPage titleKey="pages.success" /> },
  { path: '/logout', element: <PlaceholderPage titleKey="nav.logout" /> },
  {
    path: '/',
    element: <AppShell />,
    children: [
      { index: true, element: <Navigate to="/units" replace /> },
      { path: 'units', element: <PlaceholderPage titleKey="nav.units" /> },
      { path: 'units/:unitId/log', element: <PlaceholderPage titleKey="pages.unitLog" /> },
      { path: 'groups', element: <PlaceholderPage titleKey="nav.groups" /> },
      { path: 'events', element: <PlaceholderPage titleKey="nav.events" /> },
      { path: 'devices', element: <PlaceholderPage titleKey="nav.devices" /> },
      { path: 'gateways', element: <PlaceholderPage titleKey="nav.gateways" /> },
      { path: 'assign', element: <PlaceholderPage titleKey="nav.assign" /> },
      { path: 'subSetup', element: <PlaceholderPage titleKey="pages.subSetup" /> },
      {
        path: 'settings',
        children: [
          { index: true, element: <Navigate to="/settings/general" replace /> },
          { path: 'general', element: <PlaceholderPage titleKey="pages.settingsGeneral" /> },
          { path: 'language', element: <PlaceholderPage titleKey="pages.settingsLanguage" /> },
          { path: 'help', element: <PlaceholderPage titleKey="pages.settingsHelp" /> },
          { path: 'billing', element: <PlaceholderPage titleKey="pages.settingsBilling" /> },
          { path: 'team', element: <PlaceholderPage titleKey="pages.settingsTeam" /> },
          { path: 'company', element: <PlaceholderPage titleKey="pages.settingsCompany" /> },
        ],
      },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

export const createRouter = () => createBrowserRouter(routes);
