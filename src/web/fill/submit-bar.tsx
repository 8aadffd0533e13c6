import type { ReactNode } from 'react';

type Props = { children: ReactNode; message?: ReactNode; tone?: 'error' | 'info' };

/** The step's buttons, kept in reach at the bottom of a phone screen, with what went wrong right above them. */
export function SubmitBar({ children, message, tone = 'error' }: Props) {
  return (
    <div className="fill-bar">
      <div className="fill-bar-inner">
        <div
          role={tone === 'error' ? 'alert' : 'status'}
          className={message ? `fill-bar-message ${tone}` : undefined}
        >
          {message}
        </div>
        <div className="fill-bar-actions">{children}</div>
      </div>
    </div>
  );
}
