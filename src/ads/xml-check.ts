const TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
const BAD_AMP = /&(?!(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});)/;

/**
 * A linear well-formedness check run before DOMParser: a broken document would make the browser
 * build a styled <parsererror>, which the player page's CSP reports as a violation. It also refuses
 * any <!DOCTYPE> or other declaration, so entity tricks never reach the parser.
 */
export function isWellFormedXml(text: string): boolean {
  const stack: string[] = [];
  let rooted = false;
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = lt < 0 ? text.slice(i) : text.slice(i, lt);
    if (BAD_AMP.test(chunk) || (chunk.trim() && !stack.length)) return false;
    if (lt < 0) break;
    const skip = (open: string, close: string) => {
      const end = text.indexOf(close, lt + open.length);
      return end < 0 ? -1 : end + close.length;
    };
    if (text.startsWith('<!--', lt)) i = skip('<!--', '-->');
    else if (text.startsWith('<![CDATA[', lt)) i = stack.length ? skip('<![CDATA[', ']]>') : -1;
    else if (text.startsWith('<?', lt)) i = skip('<?', '?>');
    else if (text.startsWith('<!', lt)) return false;
    else {
      TAG.lastIndex = lt;
      const m = TAG.exec(text);
      if (!m || BAD_AMP.test(m[3])) return false;
      const [, closing, name, , selfClosing] = m;
      if (closing) {
        if (selfClosing || stack.pop() !== name) return false;
      } else {
        if (!stack.length && rooted) return false;
        rooted = true;
        if (!selfClosing) stack.push(name);
      }
      i = TAG.lastIndex;
    }
    if (i < 0) return false;
  }
  return rooted && !stack.length;
}
