/**
 * The billing calls for the current company: the overview every member reads (the
 * navigation's subscription notice), the server's net quote, checkout, subscription changes,
 * invoices with their PDFs, and the payment provider's page.
 */
import type {
  BillingAddressInput,
  BillingAddressResponse,
  BillingOverview,
  CheckoutRequest,
  CheckoutResponse,
  CheckoutStatus,
  Invoice,
  Quote,
  QuoteRequest,
  SubscriptionPatch,
} from '@heizplan/contracts/billing';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { getCurrentCompanyId, requireCurrentCompanyId } from '../../../lib/client-storage.ts';
import { downloadApiFile } from '../../../lib/download.ts';

export const billingKeys = {
  overview: (companyId: string) => ['billing', companyId] as const,
  invoices: (companyId: string) => ['billing', companyId, 'invoices'] as const,
  quote: (companyId: string, request: QuoteRequest) => ['billing', companyId, 'quote', request] as const,
  address: (companyId: string) => ['billing', companyId, 'address'] as const,
  checkout: (companyId: string, checkoutId: string) =>
    ['billing', companyId, 'checkout', checkoutId] as const,
};

export const getBilling = () => api.get<BillingOverview>(companyPath('/billing'));

export const getBillingQueryOptions = (companyId = requireCurrentCompanyId()) =>
  queryOptions({ queryKey: billingKeys.overview(companyId), queryFn: getBilling });

/** The billing overview; `companyId` null (no company chosen yet) leaves it idle. */
export function useBilling(companyId: string | null = requireCurrentCompanyId()) {
  return useQuery({ ...getBillingQueryOptions(companyId ?? ''), enabled: companyId !== null });
}

/**
 * What an order costs, as the server computes it (licences, prorated amount, VAT, gross); keeps
 * the last answer while the next one loads. `request` null leaves it idle.
 */
export function useQuote(request: QuoteRequest | null) {
  const companyId = requireCurrentCompanyId();
  return useQuery({
    queryKey: billingKeys.quote(companyId, request ?? { interval: 'monthly', licences: 1 }),
    queryFn: () => api.post<Quote>(companyPath('/billing/quote'), { body: request }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}

/** Where the success page finds the checkout it may thank for (the tab's session only). */
const CHECKOUT_KEY = 'heizplan.checkoutId';

export const rememberedCheckout = () => sessionStorage.getItem(CHECKOUT_KEY);
export const forgetCheckout = () => sessionStorage.removeItem(CHECKOUT_KEY);

export const checkout = async (body: CheckoutRequest) => {
  const answer = await api.post<CheckoutResponse>(companyPath('/billing/checkout'), { body });
  sessionStorage.setItem(CHECKOUT_KEY, answer.checkoutId);
  return answer;
};

export function useCheckout() {
  return useMutation({ mutationFn: checkout });
}

/**
 * Whether the checkout `checkoutId` of the current company completed; idle without an id or a
 * current company (the success page opened in a fresh tab).
 */
export function useCheckoutStatus(checkoutId: string | null) {
  const companyId = getCurrentCompanyId();
  return useQuery({
    queryKey: billingKeys.checkout(companyId ?? '', checkoutId ?? ''),
    queryFn: () =>
      api.get<CheckoutStatus>(companyPath(`/billing/checkout/${encodeURIComponent(checkoutId ?? '')}`)),
    enabled: checkoutId !== null && companyId !== null,
    retry: false,
  });
}

export function useBillingAddress() {
  return useQuery({
    queryKey: billingKeys.address(requireCurrentCompanyId()),
    queryFn: () => api.get<BillingAddressResponse>(companyPath('/billing/address')),
  });
}

export function useUpdateBillingAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (address: BillingAddressInput) =>
      api.put<BillingAddressResponse>(companyPath('/billing/address'), { body: address }),
    onSuccess: (answer) => {
      const companyId = requireCurrentCompanyId();
      queryClient.setQueryData(billingKeys.address(companyId), answer);
      void queryClient.invalidateQueries({ queryKey: billingKeys.overview(companyId) });
    },
  });
}

export function useUpdateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: SubscriptionPatch) =>
      api.patch<BillingOverview>(companyPath('/billing/subscription'), { body: patch }),
    onSuccess: (overview) => {
      const companyId = requireCurrentCompanyId();
      queryClient.setQueryData(billingKeys.overview(companyId), overview);
      void queryClient.invalidateQueries({ queryKey: billingKeys.invoices(companyId) });
    },
  });
}

export function useInvoices() {
  return useQuery({
    queryKey: billingKeys.invoices(requireCurrentCompanyId()),
    queryFn: async () => (await api.get<{ results: Invoice[] }>(companyPath('/billing/invoices'))).results,
  });
}

/**
 * Opens an invoice's PDF: the app's own PDFs need the bearer token, so they are fetched and
 * handed to the browser as a file; Stripe's hosted PDFs open directly.
 */
export async function openInvoicePdf(invoice: Invoice): Promise<void> {
  if (!invoice.pdfUrl) return;
  if (!invoice.pdfUrl.startsWith('/api/')) {
    window.open(invoice.pdfUrl, '_blank', 'noopener');
    return;
  }
  await downloadApiFile(invoice.pdfUrl.slice('/api'.length), `${invoice.number}.pdf`);
}

export const openPortal = async () => (await api.post<{ url: string }>(companyPath('/billing/portal'))).url;
