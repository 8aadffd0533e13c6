import { linkParts, NEW_TAB_NOTE, OWNER_LINK_REL } from '#common/text-links.ts';

/** Text the owner wrote with its web addresses as links, as the server's page draws it (customer-form-html.ts). */
export function LinkedText({ text }: { text: string }) {
  return linkParts(text).map((part, i) =>
    part.href === undefined ? (
      part.text
    ) : (
      <a key={i} href={part.href} rel={OWNER_LINK_REL} target="_blank">
        {part.text}
        <span className="visually-hidden">{NEW_TAB_NOTE}</span>
      </a>
    ),
  );
}
