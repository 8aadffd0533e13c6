import { useState, type ReactNode } from 'react';
import type { FileAnswer } from '#common/submissions.ts';
import { isPdf } from './upload-errors.ts';

/**
 * A 100 px preview of an uploaded file (docs/product.md, Limits and constants): the image itself, or a
 * document icon for a PDF; then its actions.
 */
export function FilePreview({ answer, children }: { answer: FileAnswer; children: ReactNode }) {
  const [broken, setBroken] = useState(false);
  const name = answer.originalName ?? 'Uploaded file';
  const pdf = isPdf(answer.originalName);
  const showImage = !pdf && !broken && answer.value;
  return (
    <div className="fill-preview">
      {showImage ? (
        <img
          className="fill-preview-image"
          src={answer.value}
          width={100}
          alt={`Preview of ${name}`}
          // The signed URL lasts an hour; after that a reload shows the icon instead of a broken image.
          onError={() => setBroken(true)}
        />
      ) : (
        <svg className="fill-preview-icon" viewBox="0 0 100 120" width="100" height="120" aria-hidden="true">
          <path
            d="M12 4h52l24 24v84a4 4 0 0 1-4 4H12a4 4 0 0 1-4-4V8a4 4 0 0 1 4-4z"
            fill="#fff"
            stroke="currentColor"
            strokeWidth="4"
          />
          <path d="M64 4v24h24" fill="none" stroke="currentColor" strokeWidth="4" />
          <rect x="18" y="58" width="64" height="30" rx="4" fill={pdf ? '#b42318' : '#4a5a54'} />
          <text
            x="50"
            y="79"
            textAnchor="middle"
            fontSize="18"
            fontWeight="700"
            fill="#fff"
            fontFamily="system-ui, sans-serif"
          >
            {pdf ? 'PDF' : 'FILE'}
          </text>
        </svg>
      )}
      <div className="fill-preview-body">
        <p className="fill-preview-name" dir="auto">
          {name}
        </p>
        {children}
      </div>
    </div>
  );
}
