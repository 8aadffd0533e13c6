import { useLayoutEffect, useRef, type ReactNode } from 'react';

type Props = { children: ReactNode; message?: ReactNode; tone?: 'error' | 'info' };

/** Room under a focused control: the bar's gap to the screen's edge (submit-bar.css: bottom), as much again above. */
const BAR_GAP_PX = 16;

/**
 * Keeps submit-bar.css's `--fill-bar-space` (the page's scroll-padding-bottom) at the bar's real height, which grows
 * with its message, so a control reached by Tab scrolls clear of the bar. Without the script that file's default holds.
 *
 * A text box the browser scrolls by its caret, not its box: Chromium leaves a long-text box whose first line shows
 * with the rest under the bar. So a control that gets the focus and still ends under the bar is brought up; for an
 * option of a radio or checkbox group, its group's message (below the last option) is.
 */
function useBarSpace() {
  const bar = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = bar.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const measure = () =>
      root.style.setProperty('--fill-bar-space', `${element.offsetHeight + BAR_GAP_PX}px`);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    const form = element.closest('form');
    const clearOfBar = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof HTMLElement) || element.contains(target)) return;
      // An option of a group with a message: the message under the group's last option is what must show.
      const box =
        target.closest('.fill-group')?.querySelector('.fill-error') ??
        target.closest('.fill-option') ??
        target;
      if (box.getBoundingClientRect().bottom > element.getBoundingClientRect().top) {
        box.scrollIntoView({ block: 'nearest' });
      }
    };
    form?.addEventListener('focusin', clearOfBar);
    return () => {
      observer.disconnect();
      form?.removeEventListener('focusin', clearOfBar);
      root.style.removeProperty('--fill-bar-space');
    };
  }, []);
  return bar;
}

/** The step's buttons, kept in reach at the bottom of a phone screen, with what went wrong right above them. */
export function SubmitBar({ children, message, tone = 'error' }: Props) {
  const bar = useBarSpace();
  return (
    <div className="fill-bar" ref={bar}>
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
