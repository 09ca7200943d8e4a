/**
 * Step 2 of an import: which column feeds which field, and defaults for rows where the column is
 * missing or empty. Pre-filled with the company's last mapping (fitted to this file's columns) or
 * one suggested from the column names; checked with the contract's `importSettingsSchema` (each
 * required field mapped or defaulted, each default a value its field takes). Below, the file's
 * first rows as a preview.
 */
import { DEVICE_MODELS } from '@heizplan/contracts/devices';
import {
  DEFAULTABLE_IMPORT_FIELDS,
  IMPORT_FIELDS,
  type ImportField,
  type ImportKind,
  type ImportMappingAnswer,
  type ImportPreview,
  importSettingsSchema,
  REQUIRED_IMPORT_FIELDS,
} from '@heizplan/contracts/imports';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import {
  Form,
  FormField,
  FormTextInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { Select } from '../../../components/ui/select.tsx';
import type { ImportSettings } from '../api/imports.ts';
import { PreviewTable } from './preview-table.tsx';

const defaultable = (kind: ImportKind, field: ImportField) =>
  (DEFAULTABLE_IMPORT_FIELDS[kind] as readonly ImportField[]).includes(field);

/** The form's values: every field of the kind, '' for "no column" and "no default". */
function initialValues(kind: ImportKind, answer: ImportMappingAnswer) {
  const mapping = answer.mapping as Record<string, string | undefined>;
  const defaults = answer.defaults as Record<string, string | undefined>;
  return {
    mapping: Object.fromEntries(IMPORT_FIELDS[kind].map((f) => [f, mapping[f] ?? ''])),
    defaults: Object.fromEntries(DEFAULTABLE_IMPORT_FIELDS[kind].map((f) => [f, defaults[f] ?? ''])),
  };
}

/** A select of `options` ('' first) for the form field `name`, labelled `label`. */
function FormSelect({
  name,
  label,
  options,
  testid,
}: {
  name: string;
  label: string;
  options: { id: string; value: string }[];
  testid: string;
}) {
  const control = useFormControl(name);
  return (
    <FormField name={name} label={label} testid={`${testid}-field`}>
      {(wiring) => (
        <Select
          {...wiring}
          value={(control.value as string | undefined) ?? ''}
          onChange={control.onChange}
          onBlur={control.onBlur}
          options={options.map((o) => ({ ...o, testid: `${testid}-${o.id || 'none'}` }))}
          testid={testid}
        />
      )}
    </FormField>
  );
}

export function MappingStep({
  kind,
  preview,
  answer,
  onBack,
  onSubmit,
  checking,
}: {
  kind: ImportKind;
  preview: ImportPreview;
  /** The remembered or suggested mapping (`GET …/mapping`). */
  answer: ImportMappingAnswer;
  onBack: () => void;
  onSubmit: (settings: ImportSettings) => void;
  checking: boolean;
}) {
  const { t, i18n } = useTranslation(['imports', 'devices']);
  const schema = useMemo(() => importSettingsSchema(kind), [kind]);
  const form = useContractForm(schema, { defaultValues: initialValues(kind, answer) });
  const number = new Intl.NumberFormat(i18n.language);
  const columns = [
    { id: '', value: t('mapping.noColumn') },
    // A header written twice maps to its first column, as on the server.
    ...[...new Set(preview.columns.filter((c) => c !== ''))].map((c) => ({ id: c, value: c })),
  ];
  const models = [
    { id: '', value: t('mapping.noDefault') },
    ...DEVICE_MODELS.map((m) => ({ id: m, value: t(`devices:models.${m}`) })),
  ];

  return (
    <Form
      form={form}
      onSubmit={(values) => onSubmit(values as ImportSettings)}
      className="flex flex-col gap-5"
      testid="import-mapping"
    >
      <p className="text-sm text-stone-700">{t('mapping.intro')}</p>
      <p className="text-sm text-stone-600" data-testid="import-mapping-source">
        {answer.remembered ? t('mapping.remembered') : t('mapping.suggested')}
      </p>
      <ul className="flex flex-col gap-3">
        {IMPORT_FIELDS[kind].map((field) => {
          const name = t(`fields.${field}`);
          return (
            <li
              key={field}
              className="grid gap-3 rounded-lg border border-stone-200 p-3 sm:grid-cols-2"
              data-testid={`import-field-${field}`}
            >
              <div className="flex flex-col gap-1">
                <span className="text-sm font-semibold text-ink">
                  {name}
                  {REQUIRED_IMPORT_FIELDS[kind].includes(field) && (
                    <span className="ml-2 text-xs font-normal text-stone-600">{t('mapping.required')}</span>
                  )}
                </span>
                <FormSelect
                  name={`mapping.${field}`}
                  label={t('mapping.column', { field: name })}
                  options={columns}
                  testid={`import-column-${field}`}
                />
              </div>
              {defaultable(kind, field) &&
                (field === 'model' ? (
                  <FormSelect
                    name="defaults.model"
                    label={t('mapping.default', { field: name })}
                    options={models}
                    testid="import-default-model"
                  />
                ) : (
                  <FormTextInput
                    name={`defaults.${field}`}
                    label={t('mapping.default', { field: name })}
                    testid={`import-default-${field}`}
                  />
                ))}
            </li>
          );
        })}
      </ul>
      <PreviewTable
        preview={preview}
        caption={t('mapping.preview', {
          shown: number.format(preview.rows.length),
          rows: number.format(preview.rowCount),
        })}
      />
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={onBack} testid="import-mapping-back">
          {t('mapping.back')}
        </Button>
        <Button type="submit" loading={checking} testid="import-mapping-check">
          {t('mapping.check')}
        </Button>
      </div>
    </Form>
  );
}
