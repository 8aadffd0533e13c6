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
