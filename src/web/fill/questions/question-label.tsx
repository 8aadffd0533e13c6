import { helpId } from './dom-ids.ts';

/** The owner's help text under a question's title, which its control names as its description. */
export function QuestionHelp({ field }: { field: { _id: string; help?: string } }) {
  return field.help ? (
    <p className="fill-help" id={helpId(field._id)} dir="auto">
      {field.help}
    </p>
  ) : null;
}

/** The question text and, when it must be answered, a red star that screen readers hear as "required". */
export function QuestionLabel({ name, required }: { name: string; required: boolean }) {
  return (
    <>
      {name}
      {required ? (
        <span className="fill-required">
          <span aria-hidden="true"> *</span>
          <span className="visually-hidden"> required</span>
        </span>
      ) : null}
    </>
  );
}
