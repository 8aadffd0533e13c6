import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormSettingsBody, FormSettingsView } from '#common/form-settings.ts';
import {
  MORE_KINDS,
  type AddFieldBody,
  type CreateFormBody,
  type Form,
  type FormDefinition,
  type MoreKind,
  type RenameFieldBody,
  type UpdateFormBody,
  type UpdateQuestionBody,
} from '#common/forms.ts';
import type { FormItem } from '#common/logic/items.ts';
import { api } from './client.ts';

const owner = { owner: true } as const;

export const formsQuery = () =>
  queryOptions({ queryKey: ['forms'], queryFn: () => api<Form[]>('/api/v1/formStructure', owner) });

export const formQuery = (fid: string) =>
  queryOptions({
    queryKey: ['forms', fid],
    queryFn: () => api<Form>(`/api/singleFormForEdit/${fid}`, owner),
  });

export const createForm = (body: CreateFormBody) =>
  api<Form>('/api/v1/length', { ...owner, method: 'POST', body });
export const importForm = (body: unknown) => api<Form>('/api/importForm', { ...owner, method: 'POST', body });
export const duplicateForm = (fid: string) =>
  api<Form>(`/api/duplicateForm/${fid}`, { ...owner, method: 'POST' });
export const deleteForm = (fid: string) =>
  api<unknown>(`/api/deleteForm/${fid}`, { ...owner, method: 'DELETE' });
export const exportForm = (fid: string) => api<FormDefinition>(`/api/exportForm/${fid}`, owner);

/** The kinds beyond the product's five share one path each (docs/api.md, Forms). */
const more = <P extends string>(path: P) =>
  Object.fromEntries(MORE_KINDS.map((kind) => [kind, path])) as Record<MoreKind, P>;
/** Every editor call answers the whole form; these are the per-kind paths (docs/api.md, Forms). */
const RENAME_PATH = {
  text: 'updateText',
  file: 'updateFile',
  select: 'updateSelectText',
  radio: 'updateSelectText',
  check: 'updatecheckText',
  ...more('updateQuestion'),
} as const;
const DELETE_PATH = {
  text: 'deleteText',
  file: 'deleteFile',
  select: 'deleteSelectText',
  radio: 'deleteRadioText',
  check: 'deletecheckText',
  ...more('deleteQuestion'),
} as const;
const OPTION_PATHS = {
  select: { update: 'updateOption', remove: 'deleteOption' },
  radio: { update: 'updateRadioOption', remove: 'deleteRadioOption' },
  check: { update: 'updatecheckOption', remove: 'deletecheckOption' },
} as const;
type ChoiceKind = keyof typeof OPTION_PATHS;
type Kind = keyof typeof RENAME_PATH;

export type FormEdit =
  | { type: 'updateForm'; body: UpdateFormBody }
  | { type: 'addField'; body: AddFieldBody }
  | { type: 'renameField'; kind: Kind; fieldId: string; body: RenameFieldBody }
  /** A question of a kind beyond the product's five, its settings included. */
  | { type: 'updateQuestion'; fieldId: string; body: UpdateQuestionBody }
  | { type: 'deleteField'; kind: Kind; fieldId: string }
  | { type: 'addOption'; fieldId: string; value: string }
  | { type: 'renameOption'; kind: ChoiceKind; fieldId: string; optionId: string; name: string }
  | { type: 'deleteOption'; kind: ChoiceKind; fieldId: string; optionId: string }
  | { type: 'reorder'; order: string[] }
  /** The whole list of questions and page breaks, made from the form at `version` (docs/api.md, Pages). */
  | { type: 'items'; items: FormItem[]; version: number };

export function sendEdit(fid: string, edit: FormEdit): Promise<Form> {
  switch (edit.type) {
    case 'updateForm':
      return api(`/api/updateFormEntry/${fid}`, { ...owner, method: 'PUT', body: edit.body });
    case 'addField':
      return api(`/api/text/${fid}`, { ...owner, method: 'POST', body: edit.body });
    case 'renameField':
      return api(`/api/${RENAME_PATH[edit.kind]}/${fid}/${edit.fieldId}`, {
        ...owner,
        method: 'PUT',
        body: edit.body,
      });
    case 'updateQuestion':
      return api(`/api/updateQuestion/${fid}/${edit.fieldId}`, { ...owner, method: 'PUT', body: edit.body });
    case 'deleteField':
      return api(`/api/${DELETE_PATH[edit.kind]}/${fid}/${edit.fieldId}`, { ...owner, method: 'DELETE' });
    case 'addOption':
      return api(`/api/addOption/${fid}/${edit.fieldId}`, {
        ...owner,
        method: 'POST',
        body: { value: edit.value },
      });
    case 'renameOption':
      return api(`/api/${OPTION_PATHS[edit.kind].update}/${fid}/${edit.fieldId}/${edit.optionId}`, {
        ...owner,
        method: 'PUT',
        body: { name: edit.name },
      });
    case 'deleteOption':
      return api(`/api/${OPTION_PATHS[edit.kind].remove}/${fid}/${edit.fieldId}/${edit.optionId}`, {
        ...owner,
        method: 'DELETE',
      });
    case 'reorder':
      return api(`/api/fieldOrder/${fid}`, { ...owner, method: 'PUT', body: { order: edit.order } });
    case 'items':
      return api(`/api/v1/form/${fid}/items`, {
        ...owner,
        method: 'PUT',
        body: { items: edit.items, version: edit.version },
      });
  }
}

/** Creating, importing and duplicating all end with a new form in the list. */
export function useNewForm<T>(create: (input: T) => Promise<Form>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: create,
    onSuccess: (form) => {
      client.setQueryData(formQuery(form._id).queryKey, form);
      void client.invalidateQueries({ queryKey: formsQuery().queryKey, exact: true });
    },
  });
}

export function useDeleteForm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteForm,
    onSuccess: () => client.invalidateQueries({ queryKey: formsQuery().queryKey }),
  });
}

/** The form's schedule, limit and messages (its Settings page). */
export const formSettingsQuery = (fid: string) =>
  queryOptions({
    queryKey: ['forms', fid, 'settings'],
    queryFn: () => api<FormSettingsView>(`/api/formSettings/${fid}`, owner),
  });

export function useSaveFormSettings(fid: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FormSettingsBody) =>
      api<FormSettingsView>(`/api/formSettings/${fid}`, { ...owner, method: 'PUT', body }),
    onSuccess: (saved) => {
      client.setQueryData(formSettingsQuery(fid).queryKey, saved);
      void client.invalidateQueries({ queryKey: formQuery(fid).queryKey, exact: true });
    },
  });
}
