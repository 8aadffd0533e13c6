import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Form } from '#common/forms.ts';
import { formQuery, sendEdit, type FormEdit } from '../api/forms.ts';

export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'failed'; message: string; retry: () => void; dismiss: () => void };

/**
 * The editor's copy of the form and the one way to change it. Edits run one after another (a mutation scope),
 * and each replaces the copy with the server's answer (docs/product.md, Editor); a move is shown before that
 * answer arrives. A failed edit stays on offer until retried or dismissed, so nothing the owner typed is
 * dropped silently.
 */
export function useFormEditor(fid: string) {
  const client = useQueryClient();
  const form = useQuery({ ...formQuery(fid), enabled: fid !== '' });
  const [failure, setFailure] = useState<{ edit: FormEdit; message: string } | null>(null);
  const mutation = useMutation({
    scope: { id: `edit-${fid}` },
    mutationFn: (edit: FormEdit) => sendEdit(fid, edit),
    // A move shows at once, so a second click (or a drag) right after the first moves from the new order, not from
    // the order the server last answered; the server's answer then replaces the copy as for every edit.
    onMutate: (edit: FormEdit) => {
      if (edit.type !== 'reorder') return;
      client.setQueryData(formQuery(fid).queryKey, (current: Form | undefined) => {
        if (!current) return current;
        const kinds = new Map(current.fieldOrder.map((f) => [f._id, f.kind]));
        const fieldOrder = edit.order.flatMap((id) => {
          const kind = kinds.get(id);
          return kind ? [{ _id: id, kind }] : [];
        });
        return { ...current, fieldOrder };
      });
    },
    onSuccess: (next: Form) => {
      client.setQueryData(formQuery(fid).queryKey, next);
      localStorage.setItem('makingForm', JSON.stringify(next));
      void client.invalidateQueries({ queryKey: ['forms'], exact: true });
      setFailure(null);
    },
    onError: (error, edit) => {
      setFailure({ edit, message: error.message });
      // A move shown before the server refused it is undone by reading the form again.
      if (edit.type === 'reorder') void client.invalidateQueries({ queryKey: formQuery(fid).queryKey });
    },
  });

  const edit = (change: FormEdit) =>
    mutation.mutateAsync(change).then(
      () => true,
      () => false,
    );

  const save: SaveState = mutation.isPending
    ? { kind: 'saving' }
    : failure
      ? {
          kind: 'failed',
          message: failure.message,
          retry: () => void edit(failure.edit),
          dismiss: () => setFailure(null),
        }
      : mutation.isSuccess
        ? { kind: 'saved' }
        : { kind: 'idle' };

  return { form, edit, save };
}
