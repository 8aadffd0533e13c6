// Part 10: the branching evaluator (src/common/logic): how long deciding what applies takes on a large form. The
// customer's page runs it on every answer, and the server on every submit.
import { applicable, judgeAnswers, type LogicAnswer, type LogicPage } from '../src/common/logic/applies.ts';
import { logicProblems } from '../src/common/logic/check.ts';
import type { Condition } from '../src/common/logic/conditions.ts';
import { logicWarnings } from '../src/common/logic/warnings.ts';
import type { BenchRun } from './bench-run.ts';
import { fmt } from './report.ts';

const QUESTIONS = 200;
const PAGES = 20;
const CONDITIONS = 100;

/** 20 pages of 10 questions; 100 of them (pages and questions) carry a condition of three leaves on earlier pages. */
function largeForm(): { pages: LogicPage[]; answers: Record<string, LogicAnswer> } {
  const perPage = QUESTIONS / PAGES;
  const id = (n: number) => `q${n}`;
  // Question n is a radio when n % 3 is 0, a checkbox when 1, a text when 2: each leaf tests one that fits it.
  const earlierOf = (before: number, seed: number, kind: 0 | 1) =>
    id(3 * (seed % Math.floor(before / 3)) + kind);
  const conditionOn = (before: number, n: number): Condition => ({
    any: [
      { question: earlierOf(before, n, 0), op: 'is', value: 'Yes' },
      { question: id((n * 7) % before), op: 'answered' },
      { not: { question: earlierOf(before, n * 13, 1), op: 'includes', value: 'No' } },
    ],
  });
  let conditions = 0;
  const pages: LogicPage[] = Array.from({ length: PAGES }, (_, p) => {
    const before = p * perPage;
    const page: LogicPage = {
      id: `p${p}`,
      condition: p > 0 && conditions++ < CONDITIONS ? conditionOn(before, p) : undefined,
      questions: Array.from({ length: perPage }, (_, i) => {
        const n = before + i;
        const kind = (['radio', 'check', 'text'] as const)[n % 3]!;
        return {
          id: id(n),
          kind,
          required: n % 2 === 0,
          options: kind === 'text' ? undefined : ['Yes', 'No'],
          condition: p > 0 && i % 2 === 1 && conditions++ < CONDITIONS ? conditionOn(before, n) : undefined,
        };
      }),
    };
    return page;
  });
  const answers = Object.fromEntries(
    Array.from({ length: QUESTIONS }, (_, n) => [
      id(n),
      n % 3 === 1 ? ['Yes'] : n % 3 === 0 ? 'Yes' : 'some text',
    ]),
  );
  return { pages, answers };
}

const timeEach = (runs: number, work: () => unknown, warmUp = 200) => {
  for (let i = 0; i < warmUp; i++) work(); // warm-up: what a page that has run a while does
  const started = performance.now();
  for (let i = 0; i < runs; i++) work();
  return (performance.now() - started) / runs;
};

export async function measureLogic({ report }: BenchRun): Promise<void> {
  const { pages, answers } = largeForm();
  const p = 'branching';
  const shape = `${QUESTIONS} questions, ${PAGES} pages, ${CONDITIONS} conditions`;
  if (logicProblems(pages).length > 0) throw new Error('the bench form has broken conditions');
  const applies = timeEach(2_000, () => applicable(pages, answers));
  report.check(p, `what applies, ms (${shape})`, applies, fmt(applies, 3), { max: 1 });
  const judged = timeEach(2_000, () => judgeAnswers(pages, answers));
  report.check(p, 'the server’s check of a submit, ms', judged, fmt(judged, 3), { max: 1 });
  const checked = timeEach(500, () => logicProblems(pages));
  report.add(p, 'the logic check of the whole form, ms', fmt(checked, 3));
  // The editor runs the notes (pages no answers reach) as the owner edits: bounded per form (warnings.ts).
  const noted = timeEach(20, () => logicWarnings(pages), 3);
  report.check(p, 'the logic check’s notes in the editor, ms', noted, fmt(noted, 1), { max: 100 });
  await Promise.resolve();
}
