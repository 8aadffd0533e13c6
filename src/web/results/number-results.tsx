import type { NumberResult, StepResult } from '#common/results.ts';
import { BarChart } from './bar-chart.tsx';

const format = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** A number question's results: count, smallest, largest, mean and median, and how the numbers spread. */
export function NumberSummary({ question }: { question: NumberResult }) {
  const { summary } = question;
  if (!summary) return <p className="muted">No numbers yet.</p>;
  const figures: [string, number][] = [
    ['Smallest', summary.min],
    ['Largest', summary.max],
    ['Mean', summary.mean],
    ['Median', summary.median],
  ];
  return (
    <>
      <dl className="result-figures">
        {figures.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{format(value)}</dd>
          </div>
        ))}
      </dl>
      <BarChart
        caption={`${question.name}: responses per range of numbers`}
        options={summary.histogram.map((bin) => ({
          value: bin.from === bin.to ? format(bin.from) : `${format(bin.from)} – ${format(bin.to)}`,
          count: bin.count,
          percent: summary.count > 0 ? Math.round((bin.count / summary.count) * 1000) / 10 : 0,
          offered: true,
        }))}
      />
    </>
  );
}

const share = (part: number, all: number) => (all > 0 ? Math.round((part / all) * 100) : 0);

/** A rating's or a scale's results: the responses per step, the mean, and for an NPS scale its score. */
export function StepSummary({ question }: { question: StepResult }) {
  const { nps, mean } = question;
  const groups = nps ? nps.promoters + nps.passives + nps.detractors : 0;
  return (
    <>
      {nps && nps.score !== null ? (
        <p className="result-nps">
          <strong>
            NPS {nps.score > 0 ? '+' : ''}
            {nps.score}
          </strong>{' '}
          · {share(nps.promoters, groups)}% promoters (9–10) · {share(nps.passives, groups)}% passives (7–8) ·{' '}
          {share(nps.detractors, groups)}% detractors (0–6)
        </p>
      ) : null}
      {mean !== null ? <p className="muted">Mean {format(mean)}</p> : null}
      <BarChart
        caption={`${question.name}: responses per ${question.kind === 'rating' ? 'rating' : 'step'}`}
        options={question.steps.map((s) => ({ ...s, value: String(s.value), offered: true }))}
      />
    </>
  );
}
