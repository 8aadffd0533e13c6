import { Link } from 'react-router';
import { paths } from '../paths.ts';

const MENU = [
  { text: 'Products', href: `${paths.home.href()}#features` },
  { text: 'Templates', href: paths.templates.href() },
  { text: 'Integrations', href: paths.integrations.href() },
  { text: 'Resources', href: paths.resources.href() },
  { text: 'Support', href: paths.support.href() },
];

/** The site menu's items, each to its page of the public site: the header, its phone menu and the footer list them. */
export function MenuLinks() {
  return MENU.map((item) => (
    <li key={item.text}>
      <Link to={item.href}>{item.text}</Link>
    </li>
  ));
}
