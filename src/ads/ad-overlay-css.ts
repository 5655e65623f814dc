// The ad overlay's styles travel with the lazy widget, not in the entry's stylesheet, and are
// adopted as a constructed stylesheet (CSSOM, allowed by the player page's CSP).
const css = `
.pl-ad{position:absolute;inset:0;background:#000;z-index:2}
.pl-ad__slot{position:absolute;inset:0}
.pl-ad__video,.pl-ad__vpaid{display:block;width:100%;height:100%;border:0;object-fit:contain;background:#000}
.pl-ad__click{position:absolute;inset:0 0 3.5rem 0;cursor:pointer}
.pl-ad__bar{position:absolute;left:0;right:0;bottom:0;display:flex;align-items:center;gap:.25rem;padding:.5rem .75rem;background:linear-gradient(transparent,rgba(0,0,0,.75))}
.pl-ad__skip{display:flex;align-items:center;gap:.35rem;padding:.5rem 1rem;border:1px solid rgba(255,255,255,.5);border-radius:.25rem;background:rgba(0,0,0,.7);font-size:.875rem;font-variant-numeric:tabular-nums}
.pl-ad__pod{margin-left:.5rem;font-size:.875rem;white-space:nowrap}
.pl-ad__skip:disabled{cursor:default;opacity:.85}
.pl-ad__skip svg{width:1.25rem;height:1.25rem}
`;

export function adoptAdStyles(doc: Document = document): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  } catch {
    // No constructable stylesheets (old browsers): the overlay still works, unstyled.
  }
}
