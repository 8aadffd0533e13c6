import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { Form } from '#common/forms.ts';
import { arraysOf } from '#common/logic/items.ts';
import { ApiError } from '../api/client.ts';
import { formQuery, sendEdit, type FormEdit } from '../api/forms.ts';

export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | {
      kind: 'failed';
      message: string;
      /** Sends the edit again; absent where it would fail the same way (the form changed elsewhere). */
      retry?: () => void;
      /** Reads the form again, leaving the refused edit: offered where sending it again cannot succeed. */
      reload?: () => void;
      dismiss: () => void;
    };

/**
 * The editor's copy of the form and the one way to change it. Edits run one after another (a mutation scope),
 * and each replaces the copy with the server's answer (docs/product.md, Editor); a move is shown before that
 * answer arrives. A failed edit stays on offer until retried or dismissed, so nothing the owner typed is
 * dropped silently.
 *
 * A list of items is sent with the version of the copy it was made from. When that copy is only behind the
 * server because of this editor's own saves since (a second move sent before the first was answered), the list
 * goes with the version those saves reached; a change made anywhere else still answers 409.
 */
export function useFormEditor(fid: string) {
  const client = useQueryClient();
  const form = useQuery({ ...formQuery(fid), enabled: fid !== '' });
  const [failure, setFailure] = useState<{ edit: FormEdit; message: string; stale: boolean } | null>(null);
  // Version before → after, for each edit this editor saved.
  const ownSaves = useRef(new Map<number, number>());
  const afterOwnSaves = (version: number) => {
    let v = version;
    for (let next = ownSaves.current.get(v); next !== undefined && next > v; next = ownSaves.current.get(v))
      v = next;
    return v;
  };
  const mutation = useMutation({
    scope: { id: `edit-${fid}` },
    mutationFn: async (edit: FormEdit) => {
      const before = client.getQueryData(formQuery(fid).queryKey)?.version;
      const sent = edit.type === 'items' ? { ...edit, version: afterOwnSaves(edit.version) } : edit;
      const next = await sendEdit(fid, sent);
      if (before !== undefined && next.version !== undefined) ownSaves.current.set(before, next.version);
      return next;
    },
    // A move shows at once, so a second click (or a drag) right after the first moves from the new order, not from
    // the order the server last answered; the server's answer then replaces the copy as for every edit.
    onMutate: (edit: FormEdit) => {
      if (edit.type === 'items') {
        client.setQueryData(formQuery(fid).queryKey, (current: Form | undefined) =>
          current ? { ...current, items: edit.items, fieldOrder: arraysOf(edit.items).fieldOrder } : current,
        );
      }
      if (edit.type !== 'reorder') return;
      client.setQueryData(formQuery(fid).queryKey, (current: Form | undefined) => {
        if (!current) return current;
        const kinds = new Map(current.fieldOrder.map((f) => [f._id, f.kind]));
        const fieldOrder = edit.order.flatMap((id) => {
          const kind = kinds.get(id);
          return kind ? [{ _id: id, kind }] : [];
        });
        // A reorder is sent only for a form without page breaks: its items are its questions.
        const items = current.items
          ?.slice()
          .sort((a, b) => edit.order.indexOf(a._id) - edit.order.indexOf(b._id));
        return { ...current, fieldOrder, items };
      });
    },
    onSuccess: (next: Form) => {
      client.setQueryData(formQuery(fid).queryKey, next);
      localStorage.setItem('makingForm', JSON.stringify(next));
      void client.invalidateQueries({ queryKey: ['forms'], exact: true });
      setFailure(null);
    },
    onError: (error, edit) => {
      // A list made from a copy someone else has since changed would be refused again: only reading it helps.
      const stale = error instanceof ApiError && error.code === 'EDITED_MEANWHILE';
      setFailure({ edit, message: error.message, stale });
      // A move or list shown before the server refused it is undone by reading the form again.
      if (edit.type === 'reorder' || edit.type === 'items')
        void client.invalidateQueries({ queryKey: formQuery(fid).queryKey });
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
          ...(failure.stale
            ? {
                reload: () => {
                  setFailure(null);
                  void client.invalidateQueries({ queryKey: formQuery(fid).queryKey });
                },
              }
            : { retry: () => void edit(failure.edit) }),
          dismiss: () => setFailure(null),
        }
      : mutation.isSuccess
        ? { kind: 'saved' }
        : { kind: 'idle' };

  return { form, edit, save };
}
