// The owner's calls that change one question's own words and settings (docs/api.md, Forms): the product's rename
// call for the first five kinds, and updateQuestion for the kinds beyond them.
import { isMoreKind, type Form, type TextType } from '#common/forms.ts';
import { sizeWords, type FileRules } from '#common/kinds/file-rules.ts';
import { settingsSchemaOf } from '#common/kinds/more-kinds.ts';
import type { DateSettings } from '#common/kinds/simple-kinds.ts';
import * as fieldRepo from './field-repository.ts';
import { changeField, invalid, type FieldTarget, type FormDeps } from './service.ts';

export function renameField(
  deps: FormDeps,
  target: FieldTarget,
  input: {
    name: string;
    type?: TextType | 'file';
    required?: boolean;
    help?: string;
    dateRange?: DateSettings | null;
    fileRules?: FileRules | null;
  },
): Promise<Form> {
  return changeField(deps, target, async (tx, field) => {
    let textType: TextType | undefined;
    if (input.type !== undefined) {
      const fits =
        field.kind === 'file' ? input.type === 'file' : field.kind === 'text' && input.type !== 'file';
      if (!fits) throw invalid('type', `A ${field.kind} question cannot have type ${input.type}`);
      if (input.type !== 'file') textType = input.type;
    }
    const type = textType ?? field.text_type;
    if (input.dateRange && type !== 'date')
      throw invalid('dateRange', 'Only a date question has earliest and latest days');
    if (input.fileRules && field.kind !== 'file')
      throw invalid('fileRules', 'Only a file question has its own types and size limit');
    const serverMax = deps.uploadMaxBytes;
    if (input.fileRules?.maxBytes && serverMax && input.fileRules.maxBytes > serverMax)
      throw invalid('fileRules', `A size limit is at most ${sizeWords(serverMax)} on this server`);
    await fieldRepo.updateField(tx, field.id, {
      name: input.name,
      textType,
      required: input.required,
      help: input.help,
      // A question that stops being a date question loses its range.
      settings:
        field.kind === 'file'
          ? input.fileRules
          : input.dateRange !== undefined
            ? input.dateRange
            : type !== 'date' && field.kind === 'text'
              ? null
              : undefined,
    });
  });
}

/** A question of a kind beyond the product's five: its name, Required, help text and settings. */
export function updateQuestion(
  deps: FormDeps,
  target: FieldTarget,
  input: { name: string; required?: boolean; help?: string; settings?: Record<string, unknown> },
): Promise<Form> {
  return changeField(deps, target, async (tx, field) => {
    if (!isMoreKind(field.kind)) throw invalid('kind', 'This call changes the kinds beyond the first five');
    if (field.kind === 'statement' && input.required)
      throw invalid('required', 'A statement asks nothing, so it cannot be required');
    let settings: unknown;
    if (input.settings !== undefined) {
      const schema = settingsSchemaOf(field.kind);
      if (!schema) throw invalid('settings', `A ${field.kind} question has no settings`);
      const parsed = schema.safeParse(input.settings);
      if (!parsed.success) throw invalid('settings', parsed.error.issues[0]?.message ?? 'Invalid settings');
      settings = parsed.data;
    }
    await fieldRepo.updateField(tx, field.id, {
      name: input.name,
      required: input.required,
      help: input.help,
      settings,
    });
  });
}
