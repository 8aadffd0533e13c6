// What the access matrix and the fuzz tests share: an owner with something of everything (forms from every template
// and one with every kind of question, submissions, an uploaded profile document) and a cheap fingerprint of the
// stored data, to prove that a refused request changed nothing.
import { fieldsOf, type Form } from '#common/forms.ts';
import type { UploadResponse } from '#common/submissions.ts';
import type { Queryable } from '../db/database.ts';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../runtime/config.ts';
import { MORE_KIND_QUESTIONS } from './more-kind-questions.ts';
import type { TestApp } from './test-app.ts';
import { multipart, PDF, PNG } from './test-files.ts';

export type Population = {
  forms: Form[];
  /** Every question of every form, with its form id and kind. */
  fields: { formId: string; fieldId: string; kind: string; optionIds: string[] }[];
  submissionIds: string[];
  /** The profile document's upload id and its secret (`_id` of the upload answer, which the owner sends back). */
  profileUpload: { id: string; secret: string };
  /**
   * A webhook on the form with every kind of question, added after the submissions (so nothing is sent), its form,
   * and a failed delivery of the first submission to it (written directly: failed, so the sender never takes it).
   */
  webhook: { id: string; formId: string; deliveryId: string };
};

const EVERY_KIND = [
  { id: 1, name: 'Name', type: 'text', required: true },
  { id: 1, name: 'Email', type: 'email' },
  { id: 1, name: 'About', type: 'textarea' },
  { id: 2, name: 'Room', options: [{ value: 'Single' }, { value: 'Double' }] },
  { id: 3, name: 'Meal', options: [{ value: 'Veg' }, { value: 'Non-veg' }] },
  { id: 4, name: 'Extras', options: [{ value: 'Wifi' }, { value: 'Parking' }] },
  { id: 5, name: 'ID proof' },
  // The kinds beyond the product's five (their own update and delete calls), none required: the responses below
  // answer only the first ones.
  ...MORE_KIND_QUESTIONS.map((question) => ({ ...question, required: false })),
];

async function expectOk<T>(what: string, res: { statusCode: number; body: string; json(): unknown }) {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

/** Fills an owner's account through the real API, as the owner and their customers would. */
export async function populateOwner(t: TestApp, owner: { token: string; id: string }): Promise<Population> {
  const headers = { authorization: `Bearer ${owner.token}` };
  const call = (method: 'POST' | 'PUT', url: string, payload: object) =>
    t.app.inject({ method, url, headers, payload });
  const forms: Form[] = [];
  for (const template of ['blank', 'contact', 'travel', 'event']) {
    forms.push(await expectOk<Form>('create form', await call('POST', '/api/v1/length', { template })));
  }
  let form = await expectOk<Form>(
    'create',
    await call('POST', '/api/v1/length', { formTitle: 'Every kind' }),
  );
  for (const field of EVERY_KIND) {
    form = await expectOk<Form>('add field', await call('POST', `/api/text/${form._id}`, field));
  }
  forms.push(form);

  const byName = (name: string) => fieldsOf(form).find((f) => f.name === name)?._id ?? '';
  const submissionIds: string[] = [];
  for (const who of ['Priya Sharma', 'Ravi Kumar 😀', 'Ana María']) {
    const file = await expectOk<UploadResponse>(
      'customer upload',
      await t.app.inject({
        method: 'POST',
        url: `/api/profile?formId=${form._id}`,
        ...multipart('id.pdf', PDF),
      }),
    );
    const body = {
      formStructureId: form._id,
      textObject: { [byName('Name')]: who, [byName('Email')]: 'priya@example.com', [byName('About')]: 'Hi' },
      selectedValues: { [byName('Room')]: 'Double' },
      selectedRadio: { [byName('Meal')]: 'Veg' },
      selectedCheckboxes: [{ name: byName('Extras'), values: ['Wifi', 'Parking'] }],
      fileObject: { [byName('ID proof')]: { deleteId: file._id, value: file.file, originalName: file.name } },
    };
    const res = await t.app.inject({ method: 'POST', url: `/api/forms/${owner.id}`, payload: body });
    submissionIds.push((await expectOk<{ _id: string }>('submit', res))._id);
  }

  const upload = await expectOk<UploadResponse>(
    'profile upload',
    await t.app.inject({
      method: 'POST',
      url: '/api/profile',
      ...withAuth(multipart('pan.png', PNG), headers),
    }),
  );
  await expectOk(
    'joining form',
    await call('PUT', '/api/userForm', { ...JOINING_FORM, panCardId: upload._id }),
  );
  const [row] = await t.app.db.query<{ pan_upload_id: string }>(
    'select pan_upload_id from owner_profiles where account_id = $1',
    [owner.id],
  );

  const fields = forms.flatMap((f) =>
    [
      ...f.textField.map((x) => ({ ...x, kind: 'text', options: [] })),
      ...f.selectField.map((x) => ({ ...x, kind: 'select' })),
      ...f.radioField.map((x) => ({ ...x, kind: 'radio' })),
      ...f.checkField.map((x) => ({ ...x, kind: 'check' })),
      ...f.fileField.map((x) => ({ ...x, kind: 'file', options: [] })),
      ...f.moreField.map((x) => ({ ...x, options: [] })),
    ].map((x) => ({ formId: f._id, fieldId: x._id, kind: x.kind, optionIds: x.options.map((o) => o._id) })),
  );
  const webhook = await expectOk<{ id: string }>(
    'add a webhook',
    await call('POST', `/api/formWebhooks/${form._id}`, { url: 'https://webhook.invalid/hook' }),
  );
  const [delivery] = await t.app.db.query<{ id: string }>(
    `insert into webhook_deliveries (webhook_id, submission_id, status) values ($1, $2, 'failed') returning id::text`,
    [webhook.id, submissionIds[0]],
  );
  return {
    forms,
    fields,
    submissionIds,
    profileUpload: { id: row?.pan_upload_id ?? '', secret: upload._id },
    webhook: { id: webhook.id, formId: form._id, deliveryId: delivery?.id ?? '' },
  };
}

const withAuth = (body: ReturnType<typeof multipart>, auth: Record<string, string>) => ({
  payload: body.payload,
  headers: { ...body.headers, ...auth },
});

/**
 * The owner's objects by the param names routes use: each question with each of its options, then `more`, then each
 * response, the owner and the profile upload, and the webhook with its delivery.
 */
export function paramSetsOf(
  ownerId: string,
  population: Population,
  more: Record<string, string>[] = [],
): Record<string, string>[] {
  return [
    ...population.fields.flatMap((f) =>
      [undefined, ...f.optionIds].map((optionId) => ({
        fid: f.formId,
        fieldId: f.fieldId,
        ...(optionId ? { optionId } : {}),
      })),
    ),
    ...more,
    ...population.submissionIds.map((userFormId) => ({ userFormId })),
    { id: ownerId, ownerId, uploadId: population.profileUpload.id },
    { deleteId: population.profileUpload.secret },
    { fid: population.webhook.formId, webhookId: population.webhook.id },
    {
      fid: population.webhook.formId,
      webhookId: population.webhook.id,
      deliveryId: population.webhook.deliveryId,
    },
  ];
}

export const JOINING_FORM = {
  fullName: 'Asha Rao',
  email: 'asha@example.com',
  phoneNumber: '+91 98765 43210',
  address1: '12 MG Road',
  address2: '',
  address3: '',
  country: 'India',
  state: 'Karnataka',
  city: 'Bengaluru',
  zip: '560001',
};

const OWNED_TABLES: [name: string, where: string][] = [
  ['accounts', 'x.id = $1'],
  ['sessions', 'x.account_id = $1'],
  ['forms', 'x.owner_id = $1'],
  ['form_fields', 'x.form_id in (select id from forms where owner_id = $1)'],
  ['submissions', 'x.owner_id = $1'],
  ['uploads', 'x.owner_id = $1 or x.form_id in (select id from forms where owner_id = $1)'],
  ['owner_profiles', 'x.account_id = $1'],
  ['webhooks', 'x.form_id in (select id from forms where owner_id = $1)'],
];

/**
 * One digest per table of everything stored (or of one owner's rows): one round trip, cheap enough to take around
 * every request. Rows are compared as PostgreSQL prints them, ordered by their text so no column name is assumed.
 */
export async function fingerprint(db: Queryable, ownerId?: string): Promise<Record<string, string>> {
  const columns = OWNED_TABLES.map(
    ([table, where]) =>
      `(select count(*) || ':' || coalesce(sum(hashtextextended(x::text, 0)), 0) from ${table} x` +
      `${ownerId ? ` where ${where}` : ''}) as ${table}`,
  );
  const [row] = await db.query<Record<string, string>>(
    `select ${columns.join(', ')}`,
    ownerId ? [ownerId] : [],
  );
  return row ?? {};
}

/**
 * Where the database's transaction counter stands. A request that wrote nothing leaves it where it was, so the
 * full fingerprint is only needed when it moved: one cheap query instead of seven aggregates after each request.
 */
export async function writeMark(db: Queryable): Promise<string> {
  const [row] = await db.query<{ mark: string }>(
    'select pg_snapshot_xmax(pg_current_snapshot())::text as mark',
  );
  return row?.mark ?? '';
}

/** Every rate limit out of reach: these tests send many requests from one address; the limits have their own tests. */
export const NO_RATE_LIMITS = Object.fromEntries(
  Object.entries(DEFAULT_RATE_LIMITS).map(([name, rule]) => [name, { ...rule, max: 1_000_000 }]),
) as RateLimits;
