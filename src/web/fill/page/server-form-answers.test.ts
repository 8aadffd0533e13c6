import { afterEach, describe, expect, it } from 'vitest';
import { testForm } from '../test-form.ts';
import { mergeServerValues } from './merge-server-values.ts';
import { readServerForm } from './server-form-answers.ts';

/** A form drawn as the server draws it (server/customer-form-html.ts), in a root of its own. */
function drawn(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = `<form method="post">${html}<input type="hidden" name="token" value="t"></form>`;
  document.body.replaceChildren(root);
  return root;
}

// The forms drawn here go straight into the document: take them out, so the next file's focus starts from nothing.
afterEach(() => document.body.replaceChildren());

const DROPDOWN =
  '<select id="q-city" name="city"><option value="">Select an Option</option>' +
  '<option value="Kochi">Kochi</option><option value="Pune">Pune</option></select>';

describe('readServerForm', () => {
  it('reads nothing from a form nobody touched, a dropdown showing its first option included', () => {
    const root = drawn(
      `<input id="q-name" name="name" value="">${DROPDOWN}` +
        '<input type="checkbox" name="extras" value="Lights"><input name="website" value="">',
    );
    expect(readServerForm(root, 'website')).toEqual({ values: {}, focused: null, fileChosen: false });
  });

  it('reads what was typed, chosen and ticked, and where the focus is', () => {
    const root = drawn(
      `<input id="q-name" name="name" value="">${DROPDOWN}` +
        '<input type="checkbox" name="extras" value="Lights"><input type="checkbox" name="extras" value="Bell">',
    );
    const name = root.querySelector<HTMLInputElement>('#q-name');
    const city = root.querySelector<HTMLSelectElement>('#q-city');
    if (!name || !city) throw new Error('not drawn');
    name.value = 'Asha';
    city.value = 'Pune';
    root.querySelectorAll<HTMLInputElement>('[name="extras"]').forEach((box) => (box.checked = true));
    city.focus();
    expect(readServerForm(root, 'website')).toEqual({
      values: { name: 'Asha', city: 'Pune', extras: ['Lights', 'Bell'] },
      focused: 'q-city',
      fileChosen: false,
    });
  });

  it('reads a dropdown drawn with an answer (a refused post) only when it was changed, to blank too', () => {
    const root = drawn(DROPDOWN.replace('<option value="Kochi">', '<option value="Kochi" selected>'));
    expect(readServerForm(root, 'website').values).toEqual({});
    const city = root.querySelector<HTMLSelectElement>('#q-city');
    if (!city) throw new Error('not drawn');
    city.value = '';
    expect(readServerForm(root, 'website').values).toEqual({ city: '' });
  });
});

describe('mergeServerValues', () => {
  const form = testForm({
    moreField: [
      {
        _id: 'g',
        kind: 'grid',
        name: 'Rate us',
        required: false,
        settings: { rows: ['Speed', 'Price'], columns: ['Poor', 'Good'] },
      },
    ],
    fieldOrder: [{ _id: 'g', kind: 'grid' }],
  });

  it('folds a grid’s rows, posted one radio group a row, into its answer, keeping the rows not touched', () => {
    const merged = mergeServerValues(
      form,
      { g: { Speed: 'Poor', Price: 'Good' }, name: 'A' },
      { 'g.0': 'Good' },
    );
    expect(merged).toEqual({ g: { Speed: 'Good', Price: 'Good' }, name: 'A' });
    expect(mergeServerValues(form, {}, { 'g.1': 'Poor' })).toEqual({ g: { Price: 'Poor' } });
    expect(mergeServerValues(form, { g: { Speed: 'Poor' } }, { name: 'B' })).toEqual({
      g: { Speed: 'Poor' },
      name: 'B',
    });
  });
});
