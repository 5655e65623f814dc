/** Reads one cookie; sandboxed frames throw on document.cookie, which counts as "no cookie". */
export function readCookie(name: string, doc: { cookie: string } = document): string | undefined {
  let all: string;
  try {
    all = doc.cookie;
  } catch {
    return undefined;
  }
  for (const part of all.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return part.slice(i + 1).trim();
      }
    }
  }
  return undefined;
}
