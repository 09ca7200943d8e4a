/**
 * The `ilike` pattern of a search box: the text matched literally anywhere, shared by the lists
 * that search by name so they treat `%`, `_` and `\` alike.
 */

/** `ilike` pattern matching `text` literally anywhere. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
