import type { Question } from '#common/question-order.ts';
import { ChoiceGroup } from './choice-group.tsx';
import { GridQuestion } from './grid-question.tsx';
import { MoreQuestion } from './more-question.tsx';
import type { Value } from './questions.ts';
import { SelectQuestion } from './select-question.tsx';
import { TextQuestion } from './text-question.tsx';

type Props = {
  question: Exclude<Question, { kind: 'file' }>;
  value: Value | undefined;
  error?: string;
  onChange: (value: Value) => void;
};

/** One non-file question, drawn by its kind. */
export function QuestionField({ question, value, error, onChange }: Props) {
  const text = typeof value === 'string' ? value : '';
  switch (question.kind) {
    case 'text':
      return <TextQuestion field={question.field} value={text} error={error} onChange={onChange} />;
    case 'select':
      return <SelectQuestion field={question.field} value={text} error={error} onChange={onChange} />;
    case 'radio':
    case 'check':
      return (
        <ChoiceGroup
          field={question.field}
          multiple={question.kind === 'check'}
          value={typeof value === 'string' || Array.isArray(value) ? value : []}
          error={error}
          onChange={onChange}
        />
      );
  }
  if (question.field.kind === 'grid') {
    const chosen = value && typeof value === 'object' && !Array.isArray(value) ? value : {};
    return <GridQuestion field={question.field} value={chosen} error={error} onChange={onChange} />;
  }
  return <MoreQuestion field={question.field} value={text} error={error} onChange={onChange} />;
}
