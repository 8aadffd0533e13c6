import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';

// The worker is bundled with the app and served by it, never fetched from a CDN (docs/spec-deviations.md).
GlobalWorkerOptions.workerSrc = workerUrl;

/** Renders a PDF in the page with pdf.js, a page at a time. */
export function PdfViewer({ url, name }: { url: string; name: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [pageNumber, setPageNumber] = useState(1);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const task = getDocument({ url });
    task.promise.then(setDoc, (e: unknown) =>
      setError(e instanceof Error ? e.message : 'This PDF could not be shown'),
    );
    return () => void task.destroy();
  }, [url]);

  useEffect(() => {
    if (!doc || !canvas.current) return;
    let cancelled = false;
    const target = canvas.current;
    void doc.getPage(pageNumber).then((page) => {
      if (cancelled) return;
      const width = Math.min(640, target.parentElement?.clientWidth ?? 640);
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
    });
    return () => {
      cancelled = true;
    };
  }, [doc, pageNumber]);

  if (error) return <p className="field-error">{error}</p>;
  return (
    <figure className="pdf-viewer">
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
