/**
 * The billing variables of `loadConfig`: the seller's details (BILLING_SELLER_*, with the older
 * BILLING_SELLER still read), the VAT rate, the limit per order, and the start-up warning of a
 * production server whose invoices would lack what §14 UStG asks of the seller.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, configWarnings, loadConfig } from '../../config.ts';

/** The variables `loadConfig` refused, by name. */
function refused(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => i.variable);
    throw error;
  }
  return [];
}

describe('billing configuration', () => {
  it('defaults to 19 % VAT, 1000 licences per order and a seller named Heizplan', () => {
    const { billing } = loadConfig({});
    expect(billing).toMatchObject({
      vatPercent: 19,
      maxLicencesPerOrder: 1000,
      seller: { name: 'Heizplan', address: [] },
    });
  });

  it('reads the seller in parts, IBAN without spaces', () => {
    const { seller } = loadConfig({
      BILLING_SELLER_NAME: 'Heizplan GmbH',
      BILLING_SELLER_ADDRESS: 'Musterstraße 1; 10115 Berlin',
      BILLING_SELLER_VAT_ID: 'DE123456789',
      BILLING_SELLER_TAX_NUMBER: '27/123/45678',
      BILLING_SELLER_IBAN: 'de89 3704 0044 0532 0130 00',
      BILLING_SELLER_BIC: 'COBADEFFXXX',
      BILLING_SELLER_BANK: 'Commerzbank',
    }).billing;
    expect(seller).toEqual({
      name: 'Heizplan GmbH',
      address: ['Musterstraße 1', '10115 Berlin'],
      vatId: 'DE123456789',
      taxNumber: '27/123/45678',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      bank: 'Commerzbank',
    });
  });

  it('still reads BILLING_SELLER: the first line is the name, the rest the address', () => {
    const { seller } = loadConfig({ BILLING_SELLER: 'Alt GmbH; Weg 1\n12345 Stadt' }).billing;
    expect(seller).toMatchObject({ name: 'Alt GmbH', address: ['Weg 1', '12345 Stadt'] });
    // The new variables win.
    const mixed = loadConfig({ BILLING_SELLER: 'Alt GmbH; Weg 1', BILLING_SELLER_NAME: 'Neu GmbH' }).billing;
    expect(mixed.seller).toMatchObject({ name: 'Neu GmbH', address: [] });
  });

  it('refuses a bad IBAN, BIC, VAT ID, VAT rate or order limit by name', () => {
    expect(refused({ BILLING_SELLER_IBAN: 'DE89 3704 0044 0532 0130 01' })).toEqual(['BILLING_SELLER_IBAN']);
    expect(refused({ BILLING_SELLER_BIC: 'COBA' })).toEqual(['BILLING_SELLER_BIC']);
    expect(refused({ BILLING_SELLER_VAT_ID: '123' })).toEqual(['BILLING_SELLER_VAT_ID']);
    expect(refused({ BILLING_VAT_PERCENT: '101' })).toEqual(['BILLING_VAT_PERCENT']);
    expect(refused({ BILLING_VAT_PERCENT: '19,5' })).toEqual(['BILLING_VAT_PERCENT']);
    expect(refused({ BILLING_MAX_LICENCES_PER_ORDER: '0' })).toEqual(['BILLING_MAX_LICENCES_PER_ORDER']);
    expect(refused({ BILLING_MAX_LICENCES_PER_ORDER: '100001' })).toEqual(['BILLING_MAX_LICENCES_PER_ORDER']);
    expect(loadConfig({ BILLING_VAT_PERCENT: '7.5' }).billing.vatPercent).toBe(7.5);
    expect(loadConfig({ BILLING_VAT_PERCENT: '0' }).billing.vatPercent).toBe(0);
    expect(loadConfig({ BILLING_MAX_LICENCES_PER_ORDER: '50' }).billing.maxLicencesPerOrder).toBe(50);
    // An empty line in an .env file leaves a variable unset.
    expect(loadConfig({ BILLING_SELLER_IBAN: '' }).billing.seller.iban).toBeUndefined();
  });

  it('warns a production server whose invoices lack the seller’s address, tax id or account', () => {
    // The operator names itself (the legal pages' warning is tested with them, modules/legal).
    const production = {
      NODE_ENV: 'production',
      OIDC_ISSUER: 'https://id.example',
      OIDC_CLIENT_ID: 'web',
      OPERATOR_NAME: 'Wärmewerk Süd GmbH',
      OPERATOR_ADDRESS: 'Lindwurmstraße 12; 80337 München',
      OPERATOR_EMAIL: 'kontakt@waermewerk.example',
    };
    const variables = (env: Record<string, string>) => configWarnings(loadConfig(env)).map((w) => w.variable);
    expect(variables(production)).toEqual([
      'BILLING_SELLER_ADDRESS',
      'BILLING_SELLER_VAT_ID',
      'BILLING_SELLER_IBAN',
    ]);
    const complete = {
      ...production,
      BILLING_SELLER_ADDRESS: 'Musterstraße 1; 10115 Berlin',
      BILLING_SELLER_TAX_NUMBER: '27/123/45678',
      BILLING_SELLER_IBAN: 'DE89370400440532013000',
    };
    expect(variables(complete)).toEqual([]);
    expect(variables({ ...production, BILLING_PROVIDER: 'none' })).toEqual([]);
    expect(variables({})).toEqual([]);
  });
});
