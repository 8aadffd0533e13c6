import { useId } from 'react';
import type { QuestionResult as Result } from '#common/results.ts';
import { BarChart } from './bar-chart.tsx';
import { GridSummary } from './grid-results.tsx';
import { LatestAnswers } from './latest-answers.tsx';
import { NumberSummary, StepSummary } from './number-results.tsx';

const KIND_LABELS: Record<Result['kind'], string> = {
  text: 'Text',
  select: 'Dropdown',
  radio: 'Radio button',
  check: 'Checkboxes',
  file: 'File upload',
  number: 'Number',
  rating: 'Rating',
  scale: 'Linear scale',
  consent: 'Consent',
  time: 'Time',
  url: 'Web address',
  grid: 'Choice grid',
};

/** One question's results: bars for a choice, the latest answers for text, a count for files. */
export function QuestionResult({ question, responses }: { question: Result; responses: number }) {
  const headingId = useId();
  const { answered, shownTo } = question;
  const of = (count: number) => `${count} ${count === 1 ? 'response' : 'responses'}`;
  return (
    <section className="card result-question" aria-labelledby={headingId}>
      <div className="result-question-head">
        <h3 id={headingId} dir="auto">
          {question.name || 'Untitled question'}
        </h3>
        <span className="badge">{KIND_LABELS[question.kind]}</span>
      </div>
      <p className="muted result-answered">
        {shownTo < responses
          ? `Shown to ${shownTo} of ${of(responses)} · ${answered} ${question.kind === 'file' ? 'with a file' : 'answered'}`
          : question.kind === 'file'
            ? `${answered} of ${of(responses)} with a file`
            : `${answered} of ${of(responses)} answered`}
      </p>
      {question.kind === 'text' || question.kind === 'time' || question.kind === 'url' ? (
        <LatestAnswers latest={question.latest} />
      ) : null}
      {question.kind === 'number' ? <NumberSummary question={question} /> : null}
      {question.kind === 'grid' ? <GridSummary question={question} /> : null}
      {question.kind === 'rating' || question.kind === 'scale' ? <StepSummary question={question} /> : null}
      {question.kind === 'select' || question.kind === 'radio' || question.kind === 'check' ? (
        <BarChart
          caption={`${question.name}: responses per option${question.kind === 'check' ? ' (several may be ticked)' : ''}`}
          options={question.options}
        />
      ) : null}
    </section>
  );
}
