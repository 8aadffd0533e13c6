// Recall: a question's title or description may insert an earlier answer or a hidden field, with a fallback when it
// is empty: "Thanks, {{answer:<question id>|friend}}!" or "{{hidden:ref}}". The result is a list of text pieces that
// both pages draw as text (React's text nodes, the server's escaping): an answer holding markup stays text.

export type RecallSource = {
  answers: Readonly<Record<string, unknown>>;
  hidden: Readonly<Record<string, string>>;
};

const TOKEN = /\{\{(answer|hidden):([A-Za-z0-9_-]{1,100})(?:\|([^{}]{0,100}))?\}\}/g;

/** An answer as recalled text: a choice list joined, a file or grid not recalled (its fallback is used). */
function asText(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  return '';
}

/** The text with every recall replaced: by the answer, or else by its fallback (or nothing). */
export function recallText(template: string, source: RecallSource): string {
  return template.replace(TOKEN, (_whole, from: string, key: string, fallback: string | undefined) => {
    const value = from === 'answer' ? asText(source.answers[key]) : (source.hidden[key] ?? '').trim();
    return value !== '' ? value : (fallback ?? '').trim();
  });
}

/** The question ids a text recalls: the logic check holds them to earlier pages, as conditions are. */
export function recalledQuestions(template: string): string[] {
  return [...template.matchAll(TOKEN)].filter((m) => m[1] === 'answer').map((m) => m[2] ?? '');
}

/** A question as drawn for these answers: its title and help text with their recalls replaced (itself without any). */
export function recalledField<F extends { name: string; help?: string }>(field: F, source: RecallSource): F {
  if (!field.name.includes('{{') && !field.help?.includes('{{')) return field;
  return {
    ...field,
    name: recallText(field.name, source),
    ...(field.help ? { help: recallText(field.help, source) } : {}),
  };
}
