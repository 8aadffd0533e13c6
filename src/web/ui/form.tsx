import type { ReactNode } from 'react';
import { FormProvider, type FieldValues, type SubmitHandler, type UseFormReturn } from 'react-hook-form';

type Props<TValues extends FieldValues, TContext, TOutput extends FieldValues> = {
  form: UseFormReturn<TValues, TContext, TOutput>;
  onSubmit: SubmitHandler<TOutput>;
  className?: string;
  children: ReactNode;
};

/**
 * A react-hook-form form: gives its `Field`s the form through context and validates with the form's resolver
 * (the common zod schema) before `onSubmit` runs. Native validation is off so our messages are the only ones.
 */
export function Form<TValues extends FieldValues, TContext, TOutput extends FieldValues>({
  form,
  onSubmit,
  className,
  children,
}: Props<TValues, TContext, TOutput>) {
  return (
    <FormProvider {...form}>
      <form className={className} noValidate onSubmit={form.handleSubmit(onSubmit)}>
        {children}
      </form>
    </FormProvider>
  );
}
