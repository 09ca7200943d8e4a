/**
 * The company's billing address (admins): who the invoices are made out to, as §14 Abs. 4
 * UStG requires the buyer's full name and address; a VAT ID is optional. Paying by invoice
 * needs it, so the shop shows this form when "Auf Rechnung" is chosen without one, and
 * settings → billing keeps it editable.
 */
import { type BillingAddress, BillingAddressInputSchema } from '@heizplan/contracts/billing';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import {
  applyServerErrors,
  Form,
  FormError,
  FormTextInput,
  useContractForm,
} from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useUpdateBillingAddress } from '../api/billing.ts';

export function BillingAddressForm({
  address,
  onSaved,
}: {
  address: BillingAddress | null;
  onSaved?: () => void;
}) {
  const { t } = useTranslation('billing');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const update = useUpdateBillingAddress();
  const form = useContractForm(BillingAddressInputSchema, {
    defaultValues: {
      name: address?.name ?? '',
      street: address?.street ?? '',
      postcode: address?.postcode ?? '',
      city: address?.city ?? '',
      country: address?.country ?? 'DE',
      vatId: address?.vatId ?? '',
    },
  });
  return (
    <Form
      form={form}
      testid="billing-address-form"
      className="flex flex-col gap-3"
      onSubmit={(values) =>
        update.mutate(values, {
          onSuccess: () => {
            toast({ type: 'success', title: t('address.saved'), testid: 'toast-address-saved' });
            onSaved?.();
          },
          onError: (error) => applyServerErrors(form, error, problems),
        })
      }
    >
      <FormTextInput
        name="name"
        label={t('address.name')}
        autoComplete="organization"
        testid="address-name"
      />
      <FormTextInput
        name="street"
        label={t('address.street')}
        autoComplete="street-address"
        testid="address-street"
      />
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr_6rem]">
        <FormTextInput
          name="postcode"
          label={t('address.postcode')}
          autoComplete="postal-code"
          testid="address-postcode"
        />
        <FormTextInput
          name="city"
          label={t('address.city')}
          autoComplete="address-level2"
          testid="address-city"
        />
        <FormTextInput
          name="country"
          label={t('address.country')}
          hint={t('address.countryHint')}
          autoComplete="country"
          testid="address-country"
        />
      </div>
      <FormTextInput
        name="vatId"
        label={t('address.vatId')}
        hint={t('address.vatIdHint')}
        testid="address-vat-id"
      />
      <FormError testid="address-error" />
      <Button type="submit" loading={update.isPending} className="self-start" testid="address-save">
        {t('address.save')}
      </Button>
    </Form>
  );
}
