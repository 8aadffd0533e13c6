import type { ReactNode } from 'react';
import {
  isMoreKind,
  TEXT_TYPES,
  type MoreField,
  type RenameFieldBody,
  type TextType,
} from '#common/forms.ts';
import type { FormEdit } from '../api/forms.ts';
import { dragMove, MoveButtons } from './card-moves.tsx';
import { DateRangeEditor } from './date-range-editor.tsx';
import { EditableText } from './editable-text.tsx';
import { KIND_LABELS, TEXT_TYPE_LABELS, type EditorField } from './fields-in-order.ts';
import { FileRulesEditor } from './file-rules-editor.tsx';
import { HelpTextEditor } from './help-text-editor.tsx';
import { MoreSettings } from './more-settings.tsx';
import { OptionList } from './option-list.tsx';
import { RecallPicker } from './recall-picker.tsx';

type Props = {
  field: EditorField;
  position: number;
  count: number;
  onEdit: (edit: FormEdit) => void;
  onMove: (from: number, to: number) => void;
  onDelete: () => void;
  /** Its condition read out, the builder that changes it, and what the logic check found here. */
  logic?: ReactNode;
  /** What its title may recall: the questions of earlier pages and the form's hidden fields. */
  recallable?: { earlier: readonly { _id: string; name: string }[]; hiddenFields: readonly string[] };
};

/** One saved question: inline rename, type and required for text, options for choices, move and delete. */
export function FieldCard({ field, position, count, onEdit, onMove, onDelete, logic, recallable }: Props) {
  const { _id: fieldId, kind } = field;
  // The name, the text type and Required are all saved through the one rename route.
  const saveField = (body: RenameFieldBody) => onEdit({ type: 'renameField', kind, fieldId, body });
  return (
    <li className="field-card card" data-field-id={fieldId} {...dragMove(position, onMove)}>
      <div className="field-card-head">
        <span className="drag-handle" aria-hidden="true" title="Drag to reorder">
          ⋮⋮
        </span>
        <span className="badge">
          {kind === 'text' && field.type ? TEXT_TYPE_LABELS[field.type] : KIND_LABELS[kind]}
        </span>
        <div className="field-card-tools">
          <MoveButtons name={field.name} position={position} count={count} onMove={onMove} />
          <button
            type="button"
            className="icon-button is-danger"
            aria-label={`Delete question ${field.name}`}
            onClick={onDelete}
          >
            Delete
          </button>
        </div>
      </div>
      <EditableText
        className="field-name"
        dataControl="name"
        value={field.name}
        label="Question"
        onSave={(name) => saveField({ name })}
      />
      {recallable ? (
        <RecallPicker
          questionName={field.name}
          earlier={recallable.earlier}
          hiddenFields={recallable.hiddenFields}
          onInsert={(token) => saveField({ name: `${field.name} ${token}` })}
        />
      ) : null}
      <HelpTextEditor
        help={field.help}
        questionName={field.name}
        onSave={(help) => saveField({ name: field.name, help })}
      />
      {kind === 'text' && field.type === 'date' ? (
        <DateRangeEditor
          questionName={field.name}
          range={field.source?.kind === 'text' ? field.source.dateRange : undefined}
          onSave={(dateRange) => saveField({ name: field.name, dateRange })}
        />
      ) : null}
      {kind === 'file' ? (
        <FileRulesEditor
          questionName={field.name}
          rules={field.source?.kind === 'file' ? field.source.rules : undefined}
          onSave={(fileRules) => saveField({ name: field.name, fileRules })}
        />
      ) : null}
      {field.source && isMoreKind(field.source.kind) ? (
        <MoreSettings
          field={field.source as MoreField}
          onSave={(settings) =>
            onEdit({ type: 'updateQuestion', fieldId, body: { name: field.name, settings } })
          }
        />
      ) : null}
      {logic}
      {
        <div className="field-settings">
          {kind === 'text' ? (
            <label className="inline-field">
              <span>Type</span>
              <select
                className="input"
                value={field.type}
                onChange={(e) => saveField({ name: field.name, type: e.target.value as TextType })}
              >
                {TEXT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {TEXT_TYPE_LABELS[t]}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {kind === 'statement' ? null : (
            <label className="checkbox">
              <input
                type="checkbox"
                checked={field.required}
                onChange={(e) => saveField({ name: field.name, required: e.target.checked })}
              />
              <span>Required</span>
            </label>
          )}
        </div>
      }
      {field.options && (kind === 'select' || kind === 'radio' || kind === 'check') ? (
        <OptionList
          questionName={field.name}
          options={field.options}
          onAdd={(value) => onEdit({ type: 'addOption', fieldId, value })}
          onRename={(optionId, name) => onEdit({ type: 'renameOption', kind, fieldId, optionId, name })}
          onRemove={(optionId) => onEdit({ type: 'deleteOption', kind, fieldId, optionId })}
        />
      ) : null}
    </li>
  );
}
