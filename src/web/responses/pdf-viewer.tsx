import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';

// The worker is bundled with the app and served by it, never fetched from a CDN (docs/spec-deviations.md).
GlobalWorkerOptions.workerSrc = workerUrl;

/** The widest a page is drawn, in CSS pixels; narrower screens draw it at their width. */
const MAX_WIDTH = 640;

type Loaded = { url: string; doc: PDFDocumentProxy } | { url: string; error: string };

/** Renders a PDF in the page with pdf.js, a page at a time. */
export function PdfViewer({ url, name }: { url: string; name: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [pageNumber, setPageNumber] = useState(1);
  const [drawn, setDrawn] = useState<{ doc: PDFDocumentProxy; page: number } | null>(null);
  // A fresh signed URL (the response was fetched again) starts a new load; what an older one answers is ignored.
  const current = loaded?.url === url ? loaded : null;
  const doc = current && 'doc' in current ? current.doc : null;
  const error = current && 'error' in current ? current.error : null;

  useEffect(() => {
    let cancelled = false;
    // No eval: the policy forbids it (docs/decisions/014), and pdf.js interprets PostScript functions instead.
    const task = getDocument({ url, isEvalSupported: false });
    task.promise.then(
      (loadedDoc) => {
        if (!cancelled) setLoaded({ url, doc: loadedDoc });
      },
      (e: unknown) => {
        // destroy() below rejects the promise of a load we no longer want: that is not the PDF's fault.
        if (!cancelled) setLoaded({ url, error: e instanceof Error ? e.message : 'unknown error' });
      },
    );
    return () => {
      cancelled = true;
      void task.destroy();
    };
  }, [url, attempt]);

  useEffect(() => {
    if (!doc || !canvas.current) return;
    let cancelled = false;
    const target = canvas.current;
    doc
      .getPage(pageNumber)
      .then((page) => {
        if (cancelled) return;
        // The figure stretches to the space it may fill (responses.css); 0 would mean not laid out yet.
        const width = Math.min(MAX_WIDTH, target.parentElement?.clientWidth || MAX_WIDTH);
        const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
        const ratio = window.devicePixelRatio || 1;
        target.width = Math.floor(viewport.width * ratio);
        target.height = Math.floor(viewport.height * ratio);
        target.style.width = `${Math.floor(viewport.width)}px`;
        return page.render({
          canvas: target,
          viewport,
          transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
        }).promise;
      })
      .then(() => {
        if (!cancelled) setDrawn({ doc, page: pageNumber });
      })
      .catch((e: unknown) => {
        // A render cancelled by the next page or by leaving is expected; anything else is shown.
        if (!cancelled) setLoaded({ url, error: e instanceof Error ? e.message : 'unknown error' });
      });
    return () => {
      cancelled = true;
    };
  }, [doc, pageNumber, url]);

  if (error) {
    return (
      <div className="pdf-viewer-error" role="alert">
        <p className="field-error">
          This PDF could not be shown here ({error.replace(/\.$/, '')}). You can still download it.
        </p>
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => {
            setLoaded(null);
            setAttempt((n) => n + 1);
          }}
        >
          Try again
        </button>
      </div>
    );
  }
  return (
    <figure
      className="pdf-viewer"
      aria-busy={drawn?.doc === doc && drawn?.page === pageNumber ? undefined : true}
    >
      <canvas ref={canvas} role="img" aria-label={`${name}, page ${pageNumber}`} />
      {doc && doc.numPages > 1 ? (
        <figcaption className="pager">
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={pageNumber <= 1}
            onClick={() => setPageNumber((p) => p - 1)}
          >
            ← Page
          </button>
          <span className="muted">
            {pageNumber} / {doc.numPages}
          </span>
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={pageNumber >= doc.numPages}
            onClick={() => setPageNumber((p) => p + 1)}
          >
            Page →
          </button>
        </figcaption>
      ) : null}
    </figure>
  );
}
