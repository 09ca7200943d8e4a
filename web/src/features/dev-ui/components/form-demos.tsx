/** Catalogue blocks for buttons, input fields, select and combobox. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Combobox, type ComboboxOption } from '../../../components/ui/combobox.tsx';
import { Field, TextInput } from '../../../components/ui/field.tsx';
import { SearchInput } from '../../../components/ui/search-input.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { CatalogueSection, CatalogueState } from './catalogue-section.tsx';
import { useDemoRooms } from './demo-rooms.ts';

export function ButtonDemos() {
  const { t } = useTranslation('dev-ui');
  return (
    <CatalogueSection id="buttons" title={t('sections.buttons')}>
      {(['default', 'loading', 'disabled'] as const).map((state) => (
        <CatalogueState key={state} label={t(`states.${state}`)}>
          <div className="flex flex-wrap gap-2">
            {(['primary', 'secondary', 'ghost', 'danger'] as const).map((variant) => (
              <Button
                key={variant}
                variant={variant}
                loading={state === 'loading'}
                disabled={state === 'disabled'}
                testid={`demo-button-${variant}-${state}`}
              >
                {t(`buttons.${variant}`)}
              </Button>
            ))}
          </div>
        </CatalogueState>
      ))}
    </CatalogueSection>
  );
}

export function FieldDemos() {
  const { t } = useTranslation('dev-ui');
  const [search, setSearch] = useState('');
  const [billingInterval, setBillingInterval] = useState('monthly');
  return (
    <CatalogueSection id="fields" title={t('sections.fields')}>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextInput
          label={t('fields.companyName')}
          hint={t('fields.companyNameHint')}
          testid="demo-company-name"
        />
        <TextInput
          label={t('fields.inviteCode')}
          defaultValue="HZ-0000"
          error={t('fields.inviteCodeError')}
          testid="demo-invite-code"
        />
        <TextInput label={t('fields.locked')} disabled defaultValue="Heizplan GmbH" testid="demo-locked" />
        <Field label={t('fields.interval')} testid="demo-interval">
          {(control) => (
            <Select
              {...control}
              value={billingInterval}
              onChange={setBillingInterval}
              testid="demo-select"
              options={[
                { id: 'monthly', value: t('fields.monthly'), testid: 'demo-select-monthly' },
                { id: 'yearly', value: t('fields.yearly'), testid: 'demo-select-yearly' },
                { id: '3yearly', value: t('fields.threeYearly'), testid: 'demo-select-3yearly' },
              ]}
            />
          )}
        </Field>
        <SearchInput value={search} onChange={setSearch} testid="demo-search" className="sm:col-span-2" />
      </div>
    </CatalogueSection>
  );
}

export function ComboboxDemos() {
  const { t } = useTranslation('dev-ui');
  const rooms = useDemoRooms();
  const options: ComboboxOption[] = rooms
    .slice(0, 12)
    .map((room) => ({ id: room.id, item: room.name, testid: `demo-option-${room.id}` }));
  const [single, setSingle] = useState<string | null>(null);
  const [multi, setMulti] = useState<string[]>(['r2', 'r5']);
  return (
    <CatalogueSection id="combobox" title={t('sections.combobox')}>
      <div className="grid gap-5 sm:grid-cols-2">
        <Combobox
          label={t('combobox.room')}
          options={options}
          value={single}
          onChange={setSingle}
          testid="demo-combobox-single"
        />
        <Combobox
          multiple
          label={t('combobox.rooms')}
          options={options}
          value={multi}
          onChange={setMulti}
          testid="demo-combobox-multi"
        />
      </div>
    </CatalogueSection>
  );
}
