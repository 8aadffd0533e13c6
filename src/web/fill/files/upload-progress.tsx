import { useId } from 'react';

/** A labelled progress bar with the percentage in words, for the upload under way. */
export function UploadProgress({ fileName, percent }: { fileName: string; percent: number }) {
  const id = useId();
  return (
    <div className="fill-progress">
      <label htmlFor={id} className="fill-progress-label">
        <span className="fill-progress-name">Uploading {fileName}…</span>
        <span>{percent}%</span>
      </label>
      <progress id={id} max={100} value={percent}>
        {percent}%
      </progress>
    </div>
  );
}
