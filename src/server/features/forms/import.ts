// An imported form's name: the definition's title marked as imported, numbered when the owner already has that name.
import { FORM_TITLE_MAX, type Form, type FormDefinition } from '#common/forms.ts';
import { truncateText } from '#common/unstorable-text.ts';
import { titlesStartingWith } from './repository.ts';
import { createFromDefinition, type FormDeps } from './service.ts';

const MARK = ' (imported';
/** Room for the mark, a number and the closing parenthesis, within the longest title. */
const ROOM = MARK.length + 8;

/**
 * "<title> (imported)", or "(imported 2)", "(imported 3)"… when the owner already has a form of that name, so an
 * import never looks the same as the form it came from (Duplicate says "Copy of" for the same reason).
 */
export function importedTitle(base: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const candidate = `${base}${MARK}${n === 1 ? '' : ` ${n}`})`;
    if (!taken.has(candidate)) return candidate;
  }
}

export async function importForm(deps: FormDeps, ownerId: string, definition: FormDefinition): Promise<Form> {
  // Cut by UTF-16 units without halving an emoji, as Duplicate does.
  const base = truncateText(definition.formTitle, FORM_TITLE_MAX - ROOM);
  const taken = new Set(await titlesStartingWith(deps.db, ownerId, `${base}${MARK}`));
  return createFromDefinition(deps, ownerId, { ...definition, formTitle: importedTitle(base, taken) });
}
