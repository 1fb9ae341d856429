/**
 * Text placed in HTML (an element's content or a quoted attribute value): the status page and the
 * `<details>` summaries of a markdown plan. Every character HTML reads as markup or as the end of an
 * attribute becomes an entity; the text is made inert for a terminal first by the caller where it
 * is anyone's (`inert`).
 */
const entities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function htmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => entities[c] as string);
}
