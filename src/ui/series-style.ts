// Styles of the resume prompt, next-episode card and share popup. They ship with the lazy controls
// piece, not the critical stylesheet, and are adopted as a constructed stylesheet, which a strict CSP
// without 'unsafe-inline' allows (unlike a <style> element).
const CSS = `
.pl-title__variant {
  font-size: 0.875rem;
  opacity: 0.75;
}
.pl-resume {
  position: absolute;
  inset: 0;
  z-index: 2;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 1rem;
  padding: 1rem;
  text-align: center;
  background: rgba(0, 0, 0, 0.7);
}
.pl-resume__text {
  margin: 0;
  font-size: 1.125rem;
}
.pl-resume__actions {
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 0.75rem;
}
.pl-resume button,
.pl-next__play {
  padding: 0.6rem 1.2rem;
  border: 0;
  border-radius: 0.25rem;
  background: var(--pl-panel);
}
.pl .pl-resume__continue,
.pl .pl-next__play {
  background: var(--pl-accent);
}
.pl-next {
  position: absolute;
  left: 0.75rem;
  bottom: 4.5rem;
  z-index: 1;
  display: flex;
  gap: 0.75rem;
  width: 24rem;
  max-width: calc(100% - 2rem);
  padding: 0.75rem;
  border-radius: 0.5rem;
  background: var(--pl-panel);
}
.pl-next__poster {
  width: 8rem;
  aspect-ratio: 16 / 9;
  object-fit: cover;
  border-radius: 0.25rem;
}
.pl-next__body {
  min-width: 0;
  font-size: 0.875rem;
}
.pl-next__head {
  opacity: 0.7;
}
.pl-next__title {
  font-weight: 600;
}
.pl-next__description {
  margin: 0.25rem 0 0.5rem;
  display: -webkit-box;
  -webkit-line-clamp: 2;
  -webkit-box-orient: vertical;
  overflow: hidden;
}
.pl-next__close,
.pl-share__close {
  align-self: flex-start;
  margin-left: auto;
  border: 0;
  background: none;
  font-size: 1.25rem;
  line-height: 1;
}
.pl-share {
  position: absolute;
  right: 0.75rem;
  bottom: 100%;
  width: 21rem;
  max-width: calc(100vw - 1.5rem);
  box-sizing: border-box;
  padding: 0.75rem;
  border-radius: 0.5rem;
  background: var(--pl-panel);
  font-size: 0.875rem;
}
.pl-share__head,
.pl-share__copy,
.pl-share__time {
  display: flex;
  align-items: center;
  gap: 0.5rem;
}
.pl-share__title {
  font-weight: 600;
}
.pl-share__targets {
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin: 0.75rem 0;
  padding: 0;
  list-style: none;
}
.pl-share__target {
  color: inherit;
}
.pl-share__link {
  flex: 1;
  min-width: 0;
  padding: 0.3rem;
  font: inherit;
}
.pl-share__time {
  margin-top: 0.75rem;
}
`;

const adopted = new WeakSet<Document>();

/** Adds the styles to the document once; where constructed stylesheets are missing, only logs. */
export function adoptSeriesStyles(doc: Document = document): void {
  if (adopted.has(doc)) return;
  adopted.add(doc);
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  } catch (err) {
    console.warn('[player] series styles not applied', err);
  }
}
