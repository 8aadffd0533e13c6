import { useState } from 'react';

type Validation = typeof import('./validate-answers.ts');
type ValidateAnswers = Validation['validateAnswers'];

let loaded: Validation | null = null;
let loading: Promise<Validation> | null = null;

/** The shared answer schema (and zod with it), fetched once; a failed fetch can be tried again. */
function loadValidation(): Promise<Validation> {
  loading ??= import('./validate-answers.ts').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * The page's check before Next or Submit, with the schema loaded on first use (docs/decisions/012). Once it has
 * arrived the check runs at once, in the click, as it did when the schema came with the page.
 */
export function useValidation() {
  const [loadFailed, setLoadFailed] = useState(false);
  const withValidation = (run: (validateAnswers: ValidateAnswers) => void) => {
    if (loaded) return run(loaded.validateAnswers);
    loadValidation().then(
      (module) => {
        setLoadFailed(false);
        run(module.validateAnswers);
      },
      () => setLoadFailed(true),
    );
  };
  const warmUp = () => void loadValidation().catch(() => undefined);
  return { withValidation, warmUp, loadFailed };
}
