/**
 * Loads oidc-provider without its start-up warning about Node 20 ("Unsupported runtime. Use
 * Node.js v22.x LTS"): the project runs on Node 20 by decision (README: Node 20.19 or newer), where oidc-provider
 * 9.13 works, and tests fail on unexpected console.warn. Only that one message is dropped;
 * every other warning passes through.
 */
const UNSUPPORTED_RUNTIME = 'Unsupported runtime. Use Node.js';

const originalWarn = console.warn;
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes(UNSUPPORTED_RUNTIME)) return;
  originalWarn.apply(console, args);
};
const oidcProvider = await import('oidc-provider').finally(() => {
  console.warn = originalWarn;
});

export const Provider = oidcProvider.default;
export const providerErrors = oidcProvider.errors;
