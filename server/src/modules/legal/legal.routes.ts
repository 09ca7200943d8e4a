/**
 * `GET /legal/{impressum,datenschutz,lizenz,avv}.html`: the installation's legal pages, public,
 * rendered with its operator (legal-pages.ts), and the accessibility statement in German
 * (`/legal/barrierefreiheit.html`) and English (`/legal/accessibility.html`,
 * accessibility-statement.ts). Plain HTML with one inline stylesheet and no script; revalidated
 * on every visit, so a changed configuration shows at once.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import {
  renderAccessibilityStatement,
  STATEMENT_PATHS,
  type StatementLang,
} from './accessibility-statement.ts';
import { LEGAL_PAGES, legalFooterLinks, renderLegalPage } from './legal-pages.ts';

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; base-uri 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-cache',
};

export async function legalRoutes(app: FastifyInstance, { config }: { config: Config }) {
  for (const page of LEGAL_PAGES) {
    app.get(
      `/legal/${page}.html`,
      { config: { public: true }, schema: { hide: true } },
      async (_request, reply) =>
        reply.headers(HEADERS).send(renderLegalPage(page, config.operator, config.agreements)),
    );
  }
  for (const lang of Object.keys(STATEMENT_PATHS) as StatementLang[]) {
    app.get(
      STATEMENT_PATHS[lang],
      { config: { public: true }, schema: { hide: true } },
      async (_request, reply) =>
        reply
          .headers(HEADERS)
          .send(renderAccessibilityStatement(lang, config, legalFooterLinks('statement', lang))),
    );
  }
}
