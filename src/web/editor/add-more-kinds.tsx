import { useId } from 'react';
import type { AddFieldBody } from '#common/forms.ts';
import { GRID_STARTER } from '#common/kinds/grid-kind.ts';
import { NPS_PRESET, NPS_QUESTION } from '#common/kinds/scale-kinds.ts';
import { UNTITLED } from './untitled.ts';

type Props = { title: string; required: boolean; onAdd: (body: AddFieldBody) => void };

/**
 * The Add Field panel's buttons for the kinds beyond the product's five: each adds its question with settings a
 * form would start from, which the card then changes (Edit settings).
 */
export function AddMoreKinds({ title, required, onAdd }: Props) {
  const id = useId();
  const named = (fallback: string) => (title === UNTITLED ? fallback : title);
  const kinds: [string, AddFieldBody][] = [
    ['Number', { id: 6, name: title, required }],
    ['Rating', { id: 7, name: title, required, settings: { max: 5, style: 'stars' } }],
    [
      'Linear scale',
      { id: 8, name: title, required, settings: { from: 1, to: 5, fromLabel: 'Poor', toLabel: 'Excellent' } },
    ],
    ['NPS', { id: 8, name: named(NPS_QUESTION), required, settings: NPS_PRESET }],
    [
      'Statement',
      { id: 9, name: named('Please read'), settings: { text: 'Write what the customer should know.' } },
    ],
    ['Consent', { id: 10, name: named('Consent'), required, settings: { text: 'I agree to the terms.' } }],
    ['Time', { id: 11, name: title, required }],
    ['Web address', { id: 12, name: title, required }],
    ['Choice grid', { id: 13, name: title, required, settings: GRID_STARTER }],
  ];
  return (
    <>
      <p className="add-field-more" id={`${id}-more`}>
        More question kinds
      </p>
      <div className="add-field-buttons" role="group" aria-labelledby={`${id}-more`}>
        {kinds.map(([label, body]) => (
          <button key={label} type="button" className="button button-secondary" onClick={() => onAdd(body)}>
            {label}
          </button>
        ))}
      </div>
    </>
  );
}
