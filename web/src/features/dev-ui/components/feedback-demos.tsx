/** Catalogue blocks for toasts, tooltips, the spinner, progress steps and the dialog. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { ProgressSteps, type StepItem } from '../../../components/ui/progress-steps.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Toast, type ToastType } from '../../../components/ui/toast.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { Tooltip } from '../../../components/ui/tooltip.tsx';
import { CatalogueSection, CatalogueState } from './catalogue-section.tsx';

const TOAST_TYPES: ToastType[] = ['info', 'success', 'warning', 'error'];
/** Pinned examples stay for ten minutes so a reviewer can look at them. */
const PINNED_TOAST_MS = 600_000;

export function ToastDemos() {
  const { t } = useTranslation('dev-ui');
  const { t: tUi } = useTranslation('ui');
  const { toast } = useToast();
  return (
    <CatalogueSection id="toast" title={t('sections.toast')}>
      <div className="flex flex-wrap gap-2">
        {TOAST_TYPES.map((type) => (
          <Button
            key={type}
            variant="secondary"
            testid={`demo-toast-${type}`}
            onClick={() =>
              toast({ title: t(`toast.title.${type}`), description: t(`toast.description.${type}`), type })
            }
          >
            {t('toast.show', { type: tUi(`toast.types.${type}`) })}
          </Button>
        ))}
      </div>
      <CatalogueState label={t('toast.pinned')}>
        <div className="grid max-w-3xl gap-3 sm:grid-cols-2">
          {TOAST_TYPES.map((type) => (
            <Toast
              key={type}
              type={type}
              title={t(`toast.title.${type}`)}
              description={t(`toast.description.${type}`)}
              duration={PINNED_TOAST_MS}
              testid={`demo-pinned-toast-${type}`}
            />
          ))}
        </div>
      </CatalogueState>
    </CatalogueSection>
  );
}

export function TooltipDemos() {
  const { t } = useTranslation('dev-ui');
  const variants = [
    { key: 'top', props: {} },
    { key: 'bottom', props: { position: 'bottom' as const } },
    { key: 'right', props: { position: 'right' as const } },
    { key: 'wide', props: { width: 240 } },
  ];
  return (
    <CatalogueSection id="tooltip" title={t('sections.tooltip')}>
      <p className="text-sm text-stone-600">{t('tooltip.focusHint')}</p>
      <div className="flex flex-wrap gap-x-4 gap-y-16 pt-14 pb-10">
        {variants.map(({ key, props }) => (
          <Tooltip key={key} content={t('tooltip.text')} testid={`demo-tooltip-${key}`} {...props}>
            <Button variant="secondary">{t(`tooltip.${key}`)}</Button>
          </Tooltip>
        ))}
      </div>
    </CatalogueSection>
  );
}

export function SpinnerDemos() {
  const { t } = useTranslation('dev-ui');
  const [loading, setLoading] = useState(true);
  return (
    <CatalogueSection id="spinner" title={t('sections.spinner')}>
      <div className="flex flex-wrap items-center gap-6">
        <Spinner loading size="sm" testid="demo-spinner-sm" />
        <Spinner loading testid="demo-spinner-md" />
        <Spinner loading size="lg" testid="demo-spinner-lg" />
        <Button variant="secondary" testid="demo-spinner-toggle" onClick={() => setLoading((l) => !l)}>
          {t('spinner.toggle')}
        </Button>
        <Spinner loading={loading} testid="demo-spinner-toggled" />
      </div>
    </CatalogueSection>
  );
}

export function StepsDemos() {
  const { t } = useTranslation('dev-ui');
  const [current, setCurrent] = useState(2);
  const items: StepItem[] = [
    { title: t('steps.language'), description: t('steps.languageText'), testid: 'demo-step-language' },
    { title: t('steps.company'), description: t('steps.companyText'), testid: 'demo-step-company' },
    { title: t('steps.terms'), description: t('steps.termsText'), testid: 'demo-step-terms' },
  ];
  return (
    <CatalogueSection id="steps" title={t('sections.steps')}>
      <CatalogueState label={t('states.interactive')}>
        <ProgressSteps items={items} current={current} onStepClick={setCurrent} testid="demo-steps" />
      </CatalogueState>
      <CatalogueState label={t('states.noBack')}>
        <ProgressSteps
          items={items.map((item) => ({ ...item, testid: `${item.testid}-locked` }))}
          current={1}
          allowBack={false}
          onStepClick={setCurrent}
          testid="demo-steps-locked"
        />
      </CatalogueState>
    </CatalogueSection>
  );
}

export function DialogDemos() {
  const { t } = useTranslation('dev-ui');
  const [open, setOpen] = useState(false);
  return (
    <CatalogueSection id="dialog" title={t('sections.dialog')}>
      <div>
        <Dialog
          open={open}
          onOpenChange={setOpen}
          title={t('dialog.title')}
          description={t('dialog.description')}
          testid="demo-dialog"
          trigger={<Button testid="demo-dialog-open">{t('dialog.open')}</Button>}
          footer={
            <>
              <DialogClose>
                <Button variant="secondary" testid="demo-dialog-cancel">
                  {t('dialog.cancel')}
                </Button>
              </DialogClose>
              <Button testid="demo-dialog-save" onClick={() => setOpen(false)}>
                {t('dialog.save')}
              </Button>
            </>
          }
        >
          <TextInput
            label={t('dialog.name')}
            defaultValue={t('table.room', { n: 1 })}
            testid="demo-dialog-name"
          />
        </Dialog>
      </div>
    </CatalogueSection>
  );
}
