import { Link } from 'react-router';
import { paths } from '../paths.ts';

const MENU = ['Products', 'Templates', 'Integrations', 'Resources', 'Support'];

/** The site menu's items, each to the not-ready page: the header, its phone menu and the footer list them. */
export function MenuLinks() {
  return MENU.map((item) => (
    <li key={item}>
      <Link to={paths.notReady.href()}>{item}</Link>
    </li>
  ));
}
