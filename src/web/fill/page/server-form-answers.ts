import type { Draft } from '../storage/fill-storage.ts';

/** What the customer did in the form the server drew before this script took the page over. */
export type ServerFormInput = {
  /** Answers changed from what the server drew, by question id (a checkbox question's as a list). */
  values: Draft['values'];
  /** The id of the control that had the focus, so the same control of the React form can take it. */
  focused: string | null;
  /** A file was chosen there: the React form cannot take a File over, so the server's form stays. */
  fileChosen: boolean;
};

const SKIPPED = new Set(['hidden', 'submit', 'button', 'file']);

/**
 * Reads the server-drawn form in `root` (server/customer-form-html.ts: each control named by its question id) for
 * answers given before the script ran: on a slow phone the customer may have typed for seconds. Only controls whose
 * state differs from the server's are read, so a reload's saved draft is not overwritten by blanks.
 */
export function readServerForm(root: HTMLElement, honeypot: string): ServerFormInput {
  const form = root.querySelector('form');
  const input: ServerFormInput = { values: {}, focused: null, fileChosen: false };
  if (!form) return input;
  const changed = new Set<string>();
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLInputElement) {
      if (element.type === 'file') input.fileChosen ||= (element.files?.length ?? 0) > 0;
      if (SKIPPED.has(element.type) || element.name === honeypot) continue;
      const moved =
        element.type === 'radio' || element.type === 'checkbox'
          ? element.checked !== element.defaultChecked
          : element.value !== element.defaultValue;
      if (moved) changed.add(element.name);
    } else if (element instanceof HTMLTextAreaElement) {
      if (element.value !== element.defaultValue) changed.add(element.name);
    } else if (element instanceof HTMLSelectElement) {
      if (selectMoved(element)) changed.add(element.name);
    }
  }
  const data = new FormData(form);
  for (const name of changed) {
    const kind = form.querySelector(`[name="${CSS.escape(name)}"]`);
    const all = data.getAll(name).filter((v): v is string => typeof v === 'string');
    input.values[name] = kind instanceof HTMLInputElement && kind.type === 'checkbox' ? all : (all[0] ?? '');
  }
  const active = document.activeElement;
  if (active && active !== document.body && form.contains(active) && active.id) input.focused = active.id;
  return input;
}

/**
 * Whether a select shows another choice than the server drew. A single select with no option marked `selected`
 * shows, and selects, its first ("Select an Option"): that is what was drawn, not an answer, and reading it as one
 * would blank a dropdown answer saved on the device when the script takes over.
 */
function selectMoved(select: HTMLSelectElement): boolean {
  const options = Array.from(select.options);
  if (select.multiple) return options.some((o) => o.selected !== o.defaultSelected);
  let drawn = 0;
  options.forEach((o, i) => {
    if (o.defaultSelected) drawn = i;
  });
  return select.selectedIndex !== drawn;
}
