// XML names: any letter (an ad server's <Расширение> inside <Extensions> is valid XML), digits, marks.
const NAME = '[\\p{L}_:][\\p{L}\\p{N}\\p{M}_.:\\u00B7-]*';
const TAG = new RegExp(`<(\\/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(\\/?)>`, 'uy');
const ATTR_NAME = new RegExp(`(${NAME})\\s*=`, 'gu');
const AMP = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));|&/g;
// Characters XML forbids (controls, lone surrogates, U+FFFE/FFFF): a browser's parser stops at them.
const BAD_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Deeper than any VAST document goes; deep nesting only serves to exhaust a recursive parser. */
const MAX_DEPTH = 64;

const xmlChar = (c: number) => c === 9 || c === 10 || c === 13 || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);

/** Every & starts a known entity or a reference to a character XML allows. */
function goodAmps(s: string): boolean {
  if (!s.includes('&')) return true;
  AMP.lastIndex = 0;
  // exec, not matchAll: matchAll copies (and recompiles) the expression on every call.
  for (let m = AMP.exec(s); m; m = AMP.exec(s)) {
    if (m[1]) continue;
    if (!m[2] && !m[3]) return false;
    if (!xmlChar(m[2] ? Number(m[2]) : parseInt(m[3], 16))) return false;
  }
  return true;
}

/** Where the construct opened at `lt` ends (-1: never closed). */
function past(text: string, lt: number, open: string, close: string): number {
  const end = text.indexOf(close, lt + open.length);
  return end < 0 ? -1 : end + close.length;
}

/**
 * A linear well-formedness check run before DOMParser: a broken document would make the browser
 * build a styled <parsererror>, which the player page's CSP reports as a violation. It also refuses
 * any <!DOCTYPE> or other declaration, so entity tricks never reach the parser, nesting deeper than
 * MAX_DEPTH, repeated attributes and namespace prefixes declared nowhere.
 */
export function isWellFormedXml(text: string): boolean {
  if (BAD_CHAR.test(text)) return false;
  const stack: string[] = [];
  const prefixes = new Set<string>();
  let rooted = false;
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = lt < 0 ? text.slice(i) : text.slice(i, lt);
    if (!goodAmps(chunk) || chunk.includes(']]>') || (chunk.trim() && !stack.length)) return false;
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      i = past(text, lt, '<!--', '-->');
      if (i > 0 && text.slice(lt + 4, i - 3).includes('--')) return false;
    } else if (/^<\?xml[\s?]/i.test(text.slice(lt, lt + 6)) && lt > 0) return false;
    else if (text.startsWith('<![CDATA[', lt)) i = stack.length ? past(text, lt, '<![CDATA[', ']]>') : -1;
    else if (text.startsWith('<?', lt)) i = past(text, lt, '<?', '?>');
    else if (text.startsWith('<!', lt)) return false;
    else {
      TAG.lastIndex = lt;
      const m = TAG.exec(text);
      if (!m || !goodAmps(m[3])) return false;
      const [, closing, name, attrs, selfClosing] = m;
      const names: string[] = [];
      ATTR_NAME.lastIndex = 0;
      for (let a = ATTR_NAME.exec(attrs); a; a = ATTR_NAME.exec(attrs)) names.push(a[1]);
      if (names.length > 1 && new Set(names).size !== names.length) return false;
      names.push(name);
      for (const n of names) if (n.includes(':')) prefixes.add(n.slice(0, n.indexOf(':')));
      if (closing) {
        if (selfClosing || attrs || stack.pop() !== name) return false;
      } else {
        if (!stack.length && rooted) return false;
        rooted = true;
        if (!selfClosing) stack.push(name);
        if (stack.length > MAX_DEPTH) return false;
      }
      i = TAG.lastIndex;
    }
    if (i < 0) return false;
  }
  for (const p of prefixes) if (p !== 'xml' && p !== 'xmlns' && !text.includes(`xmlns:${p}=`)) return false;
  return rooted && !stack.length;
}
