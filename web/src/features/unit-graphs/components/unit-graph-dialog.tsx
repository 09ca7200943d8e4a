/** The units screen's per-row graph button (spec §2 "Units screen"): opens the unit's graph in a wide dialog. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Icon } from '../../../components/ui/icon.tsx';
import { UnitGraph } from './unit-graph.tsx';

export function UnitGraphDialog({ unitId, unitName }: { unitId: string; unitName: string }) {
  const { t } = useTranslation('graphs');
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      size="wide"
      title={t('dialogTitle', { name: unitName })}
      description={t('description')}
      testid={`unit-graph-dialog-${unitId}`}
      trigger={
        <Button
          variant="ghost"
          size="sm"
          className="w-8 px-0"
          aria-label={t('openLabel', { name: unitName })}
          title={t('open')}
          testid={`unit-graph-open-${unitId}`}
        >
          <Icon name="chart" />
        </Button>
      }
    >
      {open && <UnitGraph unitId={unitId} unitName={unitName} />}
    </Dialog>
  );
}
