/**
 * The document every legal page and the accessibility statement are drawn in: one stylesheet,
 * the Heizplan header, one h1 and a footer of legal links, in the page's language.
 */

/** The legal pages' stylesheet, the accessibility statement's too. */
const STYLE = `body { font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2430; background: #fafaf9; margin: 0; line-height: 1.6; }
main { max-width: 46rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 0 0 .25rem; overflow-wrap: break-word; hyphens: auto; }
h2 { overflow-wrap: break-word; hyphens: auto; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
.stand { color: #57534e; margin: 0 0 2rem; }
a { color: #8f3318; }
header { display: flex; align-items: center; gap: .5rem; font-weight: 600; font-size: 1.1rem; margin-bottom: 2rem; }
header img { width: 1.75rem; height: 1.75rem; }
footer { margin-top: 3rem; padding-top: 1rem; border-top: 1px solid #e7e5e4; font-size: .9rem; }
footer nav { display: flex; flex-wrap: wrap; gap: .5rem 1rem; }
address { font-style: normal; }
.missing { background: #fef3c7; border-radius: .5rem; padding: .75rem 1rem; }`;

/**
 * A whole legal HTML document: `heading` is the h1's HTML (`title` when not given), `body` what
 * follows it, `links` the footer's links under a navigation named `navLabel`.
 */
export function legalDocument({
  lang,
  title,
  heading = title,
  body,
  navLabel,
  links,
}: {
  lang: string;
  title: string;
  heading?: string;
  body: string;
  navLabel: string;
  links: string;
}): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} – Heizplan</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header>Heizplan</header>
<h1>${heading}</h1>
${body}
<footer><nav aria-label="${navLabel}">${links}</nav></footer>
</main>
</body>
</html>`;
}
