/**
 * SPEC §5: a leading 'number. ' prefix can be stripped from text. Catalogue episode titles often
 * carry their own number ('3. Встреча'); wherever the player already shows 'N серия' beside the
 * title, the title goes without it. Text that is only a number ('1984.') stays as it is.
 */
export function stripNumberPrefix(text: string): string {
  const rest = text.replace(/^\s*\d+\.\s+/, '');
  return rest.trim() ? rest : text;
}
