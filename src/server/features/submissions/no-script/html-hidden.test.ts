// Hidden fields and prefilled answers without JavaScript (issue 39): the link's `?ref=…` is carried by every page as a
// hidden input and stored with the response; `?q_<id>=…` fills the question's box for the customer to keep or change;
// anything else in the query is ignored, and nothing the link carries becomes markup.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { Submission } from '#common/submissions.ts';
import { actionOf, follow, hiddenOf, idOf, owner, postOnly, setUpHtmlForm, t } from './test-fixture.ts';

const { as, makeForm } = setUpHtmlForm();

/** A form with the hidden field `ref`, a name and an e-mail, on two pages when `paged`. */
async function tracked(paged: boolean): Promise<Form> {
  const f = await makeForm('Tracked', [
    { id: 1, name: 'Name', type: 'text', required: true },
    { id: 3, name: 'Plan', options: [{ value: 'Basic' }, { value: 'Pro' }] },
    { id: 1, name: 'Email', type: 'email', required: true },
  ]);
  await as(owner).put(`/api/updateFormEntry/${f._id}`, { hiddenFields: ['ref'] });
  const current = (await as(owner).get(`/api/singleFormForEdit/${f._id}`)).json<Form>();
  if (!paged) return current;
  const [name, plan, email] = current.items;
  const items = [name, plan, { kind: 'page', _id: 'contact', title: 'Contact' }, email];
  return (
    await as(owner).put(`/api/v1/form/${f._id}/items`, { items, version: current.version })
  ).json<Form>();
}

const open = (f: Form, query: string) =>
  t.app.inject({ method: 'GET', url: `/customer/${f._id}/${owner.id}?${query}` });

async function storedOf(f: Form): Promise<Submission> {
  const list = (await as(owner).get(`/api/formSubmissions/${f._id}`)).json<{ items: { _id: string }[] }>();
  return (await as(owner).get(`/api/forms/${list.items[0]?._id}`)).json<Submission>();
}

describe('a link’s hidden fields and prefills without JavaScript', () => {
  it('carries the hidden field, shows the prefill, ignores the rest, and stores them with the answers', async () => {
    const f = await tracked(false);
    const name = idOf(f, 'Name');
    const drawn = (
      await open(f, `utm_source=mail&ref=crm-42&q_${name}=Asha%20Rao&q_${idOf(f, 'Plan')}=Pro&q_nope=1`)
    ).body;
    expect(drawn).toContain('<input type="hidden" name="hidden:ref" value="crm-42">');
    expect(drawn).not.toContain('utm_source');
    expect(drawn).toMatch(new RegExp(`id="q-${name}"[^>]*value="Asha Rao"`));
    expect(drawn).toMatch(/value="Pro" checked/);
    // The customer keeps the name, changes nothing else, and adds the e-mail.
    const res = await follow(
      await postOnly(
        [...hiddenOf(drawn), [name, 'Asha Rao'], [idOf(f, 'Email'), 'asha@example.com'], ['website', '']],
        f,
        actionOf(drawn),
      ),
    );
    expect(res.statusCode).toBe(200);
    const stored = await storedOf(f);
    expect(stored.hidden).toEqual({ ref: 'crm-42' });
    expect(stored.textObject).toMatchObject({ Name: 'Asha Rao' });
  });

  it('keeps the hidden field from the first page to the last on a form with pages', async () => {
    const f = await tracked(true);
    const first = (await open(f, 'ref=spring%20sale')).body;
    const next = await follow(
      await postOnly([...hiddenOf(first), [idOf(f, 'Name'), 'Ravi'], ['website', '']], f, actionOf(first)),
    );
    expect(next.body).toContain('<input type="hidden" name="hidden:ref" value="spring sale">');
    const done = await follow(
      await postOnly(
        [...hiddenOf(next.body), [idOf(f, 'Email'), 'ravi@example.com'], ['website', '']],
        f,
        actionOf(next.body),
      ),
    );
    expect(done.statusCode).toBe(200);
    expect((await storedOf(f)).hidden).toEqual({ ref: 'spring sale' });
  });

  it('recalls the first page’s answer and the hidden field in a later question’s title, as text', async () => {
    const paged = await tracked(true);
    const items = paged.items.map((item) =>
      item.kind !== 'page' && item.name === 'Email'
        ? { ...item, name: `Thanks, {{answer:${idOf(paged, 'Name')}|friend}}: your email ({{hidden:ref}})?` }
        : item,
    );
    const f = (
      await as(owner).put(`/api/v1/form/${paged._id}/items`, { items, version: paged.version })
    ).json<Form>();
    const first = (await open(f, 'ref=spring')).body;
    const next = await follow(
      await postOnly(
        [...hiddenOf(first), [idOf(f, 'Name'), '<b>Ravi</b>'], ['website', '']],
        f,
        actionOf(first),
      ),
    );
    expect(next.body).toContain('Thanks, &lt;b&gt;Ravi&lt;/b&gt;: your email (spring)?');
  });

  it('draws what a link carries as text, never as markup', async () => {
    const f = await tracked(false);
    const drawn = (await open(f, `ref=%22%3E%3Cscript%3Ealert(1)%3C/script%3E&q_${idOf(f, 'Name')}=%3Cb%3Ex`))
      .body;
    expect(drawn).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(drawn).toContain('value="&lt;b&gt;x"');
    expect(drawn).not.toContain('<script>alert(1)');
  });

  it('takes the page a hidden field’s condition shows only for the links that fill it so', async () => {
    const f = await tracked(true);
    const contact = f.items.find((i) => i.kind === 'page');
    const items = f.items.map((i) =>
      i === contact ? { ...i, condition: { question: 'hidden:ref', op: 'contains', value: 'crm' } } : i,
    );
    const saved = await as(owner).put(`/api/v1/form/${f._id}/items`, { items, version: f.version });
    expect(saved.statusCode, saved.body).toBe(200);
    const form = saved.json<Form>();
    const next = async (query: string) => {
      const first = (await open(form, query)).body;
      const res = await postOnly(
        [...hiddenOf(first), [idOf(form, 'Name'), 'Asha'], ['website', '']],
        form,
        actionOf(first),
      );
      return (await follow(res)).body;
    };
    // From a CRM link the contact page follows; from any other the first page is the last.
    expect(await next('ref=crm-42')).toContain('Email');
    expect(await storedCount(form)).toBe(0);
    expect(await next('ref=newsletter')).toContain('Submitted');
    expect(await storedCount(form)).toBe(1);
  });
});

const storedCount = async (f: Form) =>
  (await t.app.db.query('select id from submissions where form_id = $1', [f._id])).length;
