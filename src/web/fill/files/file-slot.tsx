import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import type { FileField } from '#common/forms.ts';
import { acceptOf, fileHint, fileRuleProblem, maxFilesOf } from '#common/kinds/file-rules.ts';
import type { FileAnswer } from '#common/submissions.ts';
import { ApiError } from '../../api/client.ts';
import { isAway } from '../../api/failure.ts';
import { deleteUpload, uploadFile } from '../../api/public-forms.ts';
import { LOCAL_FILE } from '../offline/local-file.ts';
import { withRetries } from '../offline/retry.ts';
import { controlId, describedBy, errorId, hintId } from '../questions/dom-ids.ts';
import { FieldError } from '../questions/field-error.tsx';
import { QuestionHelp, QuestionLabel } from '../questions/question-label.tsx';
import { FilePreview } from './file-preview.tsx';
import { hasAcceptedExtension, mimeOfName, uploadFailure, WRONG_TYPE_MESSAGE } from './upload-errors.ts';
import { UploadProgress } from './upload-progress.tsx';

type Props = {
  formId: string;
  field: FileField;
  /** The files given so far, in order. */
  files: readonly FileAnswer[];
  /** A message from the page: required, or the server's word on this file. */
  error?: string;
  /** Changes the slot's files from those held now: uploads end one after another, each adding its file. */
  onChange: (change: (files: FileAnswer[]) => FileAnswer[]) => void;
  onBusyChange: (busy: boolean) => void;
};

type Phase =
  | { name: 'idle' }
  | { name: 'uploading'; fileName: string; percent: number }
  | { name: 'removing'; deleteId: string }
  | { name: 'failed'; message: string; retry: File | null };

/**
 * One file question (docs/product.md, Statuses: a file slot): empty, uploading, uploaded with a preview,
 * removed. A question that takes several files (its rules' `maxFiles`) lists each with its preview, and offers the
 * picker until it holds as many as it takes.
 */
export function FileSlot({ formId, field, files, error, onChange, onBusyChange }: Props) {
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  // What a screen reader hears when an upload ends or a file goes ("photo.jpg uploaded"): the preview that appears
  // says it to the eye only.
  const [said, setSaid] = useState('');
  const inFlight = useRef<AbortController | null>(null);
  // Leaving the step cancels an upload nobody will record.
  useEffect(() => () => inFlight.current?.abort(), []);
  const most = maxFilesOf(field.rules);
  const add = (answer: FileAnswer) => onChange((list) => [...list, answer]);

  /** Uploads one file and adds it to the slot; whether it was added. */
  async function upload(file: File): Promise<boolean> {
    if (!hasAcceptedExtension(file.name)) {
      setPhase({ name: 'failed', message: WRONG_TYPE_MESSAGE, retry: null });
      return false;
    }
    // The question's own types and size limit, before anything is sent (the server holds them too).
    const problem = fileRuleProblem(field.rules, mimeOfName(file.name), file.size);
    if (problem) {
      setPhase({ name: 'failed', message: problem, retry: null });
      return false;
    }
    const controller = new AbortController();
    inFlight.current = controller;
    setPhase({ name: 'uploading', fileName: file.name, percent: 0 });
    setSaid('');
    onBusyChange(true);
    try {
      const setPercent = (percent: number) => setPhase({ name: 'uploading', fileName: file.name, percent });
      // A connection that drops midway: the same file again, a few times, before giving up (issue 13).
      const uploaded = await withRetries(
        () => uploadFile(formId, file, setPercent, controller.signal),
        (e) => (controller.signal.aborted ? -1 : e instanceof ApiError ? e.status : 0),
      );
      add({ name: field.name, value: uploaded.file, deleteId: uploaded._id, originalName: uploaded.name });
      setPhase({ name: 'idle' });
      setSaid(`${uploaded.name || file.name} uploaded`);
      return true;
    } catch (caught) {
      if (controller.signal.aborted) return false;
      // No connection, or the app away behind its proxy: the file waits on the device, as the answers would.
      const waits = caught instanceof ApiError && (caught.status === 0 || isAway(caught.status));
      if (waits && (await keepOnDevice(file))) return true;
      const { message, retry } = uploadFailure(caught);
      setPhase({ name: 'failed', message, retry: retry ? file : null });
      return false;
    } finally {
      inFlight.current = null;
      onBusyChange(false);
    }
  }

  /** No connection: the file waits on the device and is uploaded when the submission is sent (docs/decisions/025). */
  async function keepOnDevice(file: File): Promise<boolean> {
    try {
      const { keepFileOnDevice } = await import('../offline/page-queue.ts');
      add(await keepFileOnDevice(file, field.name));
      setPhase({ name: 'idle' });
      setSaid(`${file.name} kept on this device, to upload when your response is sent`);
      return true;
    } catch {
      return false;
    }
  }

  async function remove(answer: FileAnswer) {
    const { deleteId } = answer;
    setPhase({ name: 'removing', deleteId });
    try {
      if (deleteId.startsWith(LOCAL_FILE)) {
        const { forgetFileOnDevice } = await import('../offline/page-queue.ts');
        await forgetFileOnDevice(deleteId);
      } else await deleteUpload(deleteId);
    } catch (caught) {
      // 404: already gone (claimed, expired or removed in another tab); the slot is empty either way.
      if (!(caught instanceof ApiError && caught.status === 404)) {
        const message = caught instanceof ApiError ? caught.message : String(caught);
        setPhase({ name: 'failed', message: `Could not remove the file. ${message}`, retry: null });
        return;
      }
    }
    onChange((list) => list.filter((f) => f.deleteId !== deleteId));
    setPhase({ name: 'idle' });
    setSaid(`${answer.originalName ?? 'The file'} removed`);
  }

  /** The files picked, one after another, as many as the slot still has room for. */
  async function uploadAll(picked: readonly File[]) {
    const room = most - files.length;
    for (const file of picked.slice(0, room)) if (!(await upload(file))) return;
    const left = picked.length - room;
    if (left > 0) {
      const message = `This question takes at most ${most} files: ${left} of those chosen ${left === 1 ? 'was' : 'were'} not added`;
      setPhase({ name: 'failed', message, retry: null });
    }
  }

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = ''; // so picking the same file again still reports a change
    if (picked.length > 0) void uploadAll(picked);
  }

  const id = controlId(field._id);
  const full = files.length >= most;
  const message = phase.name === 'failed' ? phase.message : error;
  const described = describedBy(field, hintId(field._id), !!message && errorId(field._id));
  return (
    <div className="fill-card field fill-slot">
      {full ? (
        <p className="fill-question" id={id} tabIndex={-1} dir="auto">
          <QuestionLabel name={field.name} required={field.required} />
        </p>
      ) : (
        <label className="fill-question" htmlFor={id} dir="auto">
          <QuestionLabel name={field.name} required={field.required} />
        </label>
      )}
      <QuestionHelp field={field} />
      {files.map((answer) => (
        <FilePreview key={answer.deleteId} answer={answer}>
          {answer.deleteId.startsWith(LOCAL_FILE) ? (
            <p className="field-hint">On this device; it is uploaded when your response is sent.</p>
          ) : null}
          <button
            type="button"
            className="button button-secondary"
            disabled={phase.name === 'removing'}
            aria-label={`Remove ${answer.originalName ?? 'file'}`}
            onClick={() => void remove(answer)}
          >
            {phase.name === 'removing' && phase.deleteId === answer.deleteId ? 'Removing…' : 'Remove'}
          </button>
        </FilePreview>
      ))}
      {full ? null : (
        <>
          <p className="field-hint" id={hintId(field._id)}>
            {files.length > 0 ? `${files.length} of ${most} added. ` : ''}
            {fileHint(field.rules)}
          </p>
          {phase.name === 'uploading' ? (
            <UploadProgress fileName={phase.fileName} percent={phase.percent} />
          ) : (
            <input
              id={id}
              className="fill-file-input"
              type="file"
              accept={acceptOf(field.rules)}
              multiple={most > 1}
              aria-required={(field.required && files.length === 0) || undefined}
              aria-invalid={message ? true : undefined}
              aria-describedby={described}
              onChange={onPick}
            />
          )}
        </>
      )}
      <p className="visually-hidden" role="status">
        {said}
      </p>
      <div aria-live="polite">
        <FieldError id={errorId(field._id)} message={message} />
        {phase.name === 'failed' && phase.retry ? (
          <button
            type="button"
            className="button button-secondary fill-retry"
            onClick={() => phase.retry && void upload(phase.retry)}
          >
            Retry upload
          </button>
        ) : null}
      </div>
    </div>
  );
}
