import type { Question } from '#common/question-order.ts';
import { ChoiceGroup } from './choice-group.tsx';
import { MoreQuestion } from './more-question.tsx';
import { SelectQuestion } from './select-question.tsx';
import { TextQuestion } from './text-question.tsx';

type Props = {
  question: Exclude<Question, { kind: 'file' }>;
  value: string | string[] | undefined;
  error?: string;
  onChange: (value: string | string[]) => void;
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
          value={value ?? []}
          error={error}
          onChange={onChange}
        />
      );
  }
  return <MoreQuestion field={question.field} value={text} error={error} onChange={onChange} />;
}
