import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { gridLines } from '#common/kinds/grid-kind.ts';
import type { FileView, SubmissionAnswer } from '#common/submissions.ts';
import { submissionQuery, useDeleteResponses } from '../api/responses.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { formatAnswerDate, formatOwnerTime, useOwnerTimeZone } from '../ui/owner-time-zone.ts';
import './responses.css';
import { useScreenTitle } from '../ui/use-screen-title.ts';

// pdf.js is large: only a response with a PDF loads it. If its code cannot be fetched, the viewer's place says so
// (the download link stays) instead of the whole page failing.
const PdfViewer = lazy(() =>
  import('./pdf-viewer.tsx').then(
    (m) => ({ default: m.PdfViewer }),
    () => ({ default: PdfViewerUnavailable }),
  ),
);

function PdfViewerUnavailable() {
  return <p className="field-error">The PDF viewer could not load. You can still download the file.</p>;
}

/** One uploaded file: an image 300 px wide or the PDF in the page, and its download link. */
function AnswerFile({ question, file }: { question: string; file: FileView }) {
  return (
    <div className="answer-file">
      {file.mimeType.startsWith('image/') ? (
        <img src={file.url} alt={`${question}: ${file.originalName}`} width={300} className="answer-image" />
      ) : (
        <Suspense fallback={<p className="muted">Loading the PDF…</p>}>
          <PdfViewer url={file.url} name={file.originalName} />
        </Suspense>
      )}
      <a href={file.downloadUrl} className="button button-secondary button-small">
        Download <bdi>{file.originalName}</bdi>
      </a>
    </div>
  );
}

function AnswerValue({ answer }: { answer: SubmissionAnswer }) {
  // Every file a question took, in the order given.
  const files = answer.files ?? (answer.file ? [answer.file] : []);
  if (files.length === 1 && files[0]) return <AnswerFile question={answer.name} file={files[0]} />;
  if (files.length > 1) {
    return (
      <ol className="answer-files" aria-label={`${answer.name}: ${files.length} files`}>
        {files.map((file) => (
          <li key={file.url}>
            <AnswerFile question={answer.name} file={file} />
          </li>
        ))}
      </ol>
    );
  }
  // A grid's rows read as "Row: Column".
  const lines =
    answer.value && typeof answer.value === 'object' && !Array.isArray(answer.value)
      ? gridLines(answer.value)
      : answer.value;
  if (Array.isArray(lines)) {
    return (
      <ul className="answer-list" dir="auto">
        {lines.map((v) => (
          <li key={v}>{v}</li>
        ))}
      </ul>
    );
  }
  return (
    <p className="answer-text" dir="auto">
      {answer.isDate && typeof lines === 'string'
        ? formatAnswerDate(lines)
        : answer.outOf !== undefined
          ? `${lines} of ${answer.outOf}`
          : lines}
    </p>
  );
}

/**
 * /submitedForm/{userFormId} (docs/product.md, Responses): every answer of one response; images 300 px wide,
 * PDFs in the page.
 */
export function SubmissionPage() {
  const id = useParams().userFormId ?? '';
  const submission = useQuery(submissionQuery(id));
  useScreenTitle(submission.data ? `${submission.data.formTitle || 'Untitled'} · Response` : 'Response');
  const navigate = useNavigate();
  const remove = useDeleteResponses();
  const [isConfirming, setConfirming] = useState(false);
  const zone = useOwnerTimeZone();
  return (
    <>
      <main className="container responses">
        {submission.isSuccess ? (
          <Link to={paths.formList.href(submission.data.formStructureId)}>← All responses</Link>
        ) : (
          <Link to={paths.dashboard.href('received')}>← Responses</Link>
        )}
        {submission.isPending ? <p className="muted">Loading the response…</p> : null}
        {submission.isError ? (
          <Alert tone="error">
            {submission.error.message === 'Submission not found'
              ? 'This response does not exist or is not yours.'
              : submission.error.message}
          </Alert>
        ) : null}
        {submission.isSuccess ? (
          <article className="card submission" style={{ borderTop: `8px solid ${submission.data.border}` }}>
            <header className="submission-head">
              <div className="submission-title">
                <h1 dir="auto">{submission.data.formTitle}</h1>
                <p className="muted">Submitted {formatOwnerTime(submission.data.createdAt, zone)}</p>
              </div>
              <button
                type="button"
                className="button button-danger button-small"
                onClick={() => setConfirming(true)}
              >
                Delete response
              </button>
            </header>
            {remove.error ? (
              <p role="alert" className="field-error">
                {remove.error.message}
              </p>
            ) : null}
            <dl className="answers">
              {submission.data.answers.map((answer) => (
                <div key={answer.fieldId} className="answer">
                  <dt dir="auto">{answer.name}</dt>
                  <dd>
                    <AnswerValue answer={answer} />
                  </dd>
                </div>
              ))}
            </dl>
            {submission.data.answers.length === 0 ? (
              <p className="muted">This response left every question blank.</p>
            ) : null}
            {submission.data.hidden ? (
              <section aria-labelledby="hidden-fields-title">
                <h2 id="hidden-fields-title" className="answers-subtitle">
                  From the link
                </h2>
                <dl className="answers">
                  {Object.entries(submission.data.hidden).map(([name, value]) => (
                    <div key={name} className="answer">
                      <dt>
                        <code>{name}</code>
                      </dt>
                      <dd dir="auto">{value}</dd>
                    </div>
                  ))}
                </dl>
              </section>
            ) : null}
          </article>
        ) : null}
        {isConfirming && submission.isSuccess ? (
          <ConfirmDialog
            title="Delete this response?"
            confirmLabel={remove.isPending ? 'Deleting…' : 'Delete response'}
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              const fid = submission.data.formStructureId;
              remove.mutate(
                { fid, ids: [id] },
                { onSuccess: () => navigate(paths.formList.href(fid), { replace: true }) },
              );
            }}
          >
            This response and its uploaded files will be deleted. This cannot be undone.
          </ConfirmDialog>
        ) : null}
      </main>
    </>
  );
}
