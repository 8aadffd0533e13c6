import { Link } from 'react-router';
import type { FormResults } from '#common/results.ts';
import { paths } from '../paths.ts';
import { DayChart } from './day-chart.tsx';
import { QuestionResult } from './question-result.tsx';
import { SummaryCards } from './summary-cards.tsx';

/** The Results of one form, drawn from the API's answer. */
export function ResultsView({ results }: { results: FormResults }) {
  return (
    <>
      <div className="row-between results-head">
        <div>
          <h1 dir="auto">{results.formTitle}</h1>
          <p className="muted">Results</p>
        </div>
        <div className="results-actions">
          <Link className="button button-secondary" to={paths.formList.href(results.formId)}>
            Responses list
          </Link>
          <Link className="button button-secondary" to={paths.makeForms.href(results.formId)}>
            Edit form
          </Link>
        </div>
      </div>
      <SummaryCards results={results} />
      <section className="card" aria-labelledby="per-day-title">
        <h2 id="per-day-title">Responses per day</h2>
        <DayChart days={results.days} />
      </section>
      <section className="results-questions" aria-labelledby="questions-title">
        <h2 id="questions-title">Questions</h2>
        {results.questions.length === 0 ? (
          <p className="card empty">This form has no questions yet.</p>
        ) : (
          results.questions.map((q) => (
            <QuestionResult key={q.fieldId} question={q} responses={results.responses} />
          ))
        )}
      </section>
    </>
  );
}
