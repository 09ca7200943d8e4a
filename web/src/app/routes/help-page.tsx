/**
 * `/settings/help`: the help screen (features/help) with the getting-started checklist on
 * request — "Erste Schritte anzeigen" shows it even when every step is done, for members who
 * can act on it (operate), the same members who see it on the start screen.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingsCard } from '../../components/settings-card.tsx';
import { Button } from '../../components/ui/button.tsx';
import { GettingStartedChecklist } from '../../features/getting-started/components/getting-started-checklist.tsx';
import { HelpPage as HelpScreen } from '../../features/help/routes/help-page.tsx';
import { useCan } from '../../lib/use-can.ts';

function GettingStartedAgain() {
  const { t } = useTranslation('getting-started');
  const [shown, setShown] = useState(false);
  if (!useCan('operate')) return null;
  return (
    <>
      <SettingsCard title={t('help.title')} description={t('help.text')} testid="help-getting-started">
        <div>
          <Button variant="secondary" onClick={() => setShown((was) => !was)}>
            {shown ? t('help.hide') : t('help.show')}
          </Button>
        </div>
      </SettingsCard>
      {shown && <GettingStartedChecklist always />}
    </>
  );
}

export function HelpPage() {
  return (
    <HelpScreen>
      <GettingStartedAgain />
    </HelpScreen>
  );
}
