// A question's help text on the page drawn without JavaScript (issue 39): under its title, as text, and named by the
// answer box as its description, as the React page draws it (question-label.tsx).
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { BOOKING_ITEMS } from '../../../testing/booking-items.ts';
import { owner, setUpHtmlForm } from './test-fixture.ts';

const { as, makeForm, page } = setUpHtmlForm();

describe('a help text without JavaScript', () => {
  it('is drawn under its title on the page without JavaScript, as text, and describes the answer box', async () => {
    const blank = await makeForm('Help', []);
    const items = [{ ...BOOKING_ITEMS[0], help: 'Use <b>capitals</b> & all' }, BOOKING_ITEMS[1]];
    const form = (
      await as(owner).put(`/api/v1/form/${blank._id}/items`, { items, version: blank.version })
    ).json<Form>();
    const id = form.items[0]?._id ?? '';
    const drawn = await page(form);
    expect(drawn.body).toContain(
      `<p class="fill-help" id="q-${id}-help" dir="auto">Use &lt;b&gt;capitals&lt;/b&gt; &amp; all</p>`,
    );
    expect(drawn.body).toMatch(new RegExp(`<input[^>]*id="q-${id}"[^>]*aria-describedby="q-${id}-help"`));
    // A question without one describes nothing new.
    expect(drawn.body).not.toContain(`q-${form.items[1]?._id}-help`);
  });
});
