import { activeProfile, useAppData } from '../app-data';
import { routeToHash, type Route } from '../navigation/route';
import { ThemeToggle } from './theme-toggle';
import { useFoldedNav } from './use-folded-nav';

const ITEMS: { label: string; route: Route; matches: (route: Route) => boolean }[] = [
  { label: 'Projects', route: { screen: 'projects' }, matches: (route) => route.screen === 'projects' || 'projectId' in route },
  { label: 'Search', route: { screen: 'search', searchId: null }, matches: (route) => route.screen === 'search' },
  { label: 'Account', route: { screen: 'account' }, matches: (route) => route.screen === 'account' },
  { label: 'Settings', route: { screen: 'settings' }, matches: (route) => route.screen === 'settings' },
];

export function Nav({ route }: { route: Route }) {
  const data = useAppData();
  const profile = activeProfile(data);
  const { folded, toggle } = useFoldedNav();
  return (
    <nav className={`nav ${folded ? 'nav--folded' : ''}`} aria-label="Main" data-testid="nav">
      <div className="nav__top">
        <button
          type="button"
          className="nav__toggle"
          onClick={toggle}
          aria-expanded={!folded}
          aria-controls="nav-menu"
          aria-label={folded ? 'Show the menu' : 'Hide the menu'}
          title={folded ? 'Show the menu' : 'Hide the menu'}
          data-testid="nav-toggle"
        >
          <span aria-hidden="true">☰</span>
        </button>
        {!folded && <div className="nav__brand">Matchdesk</div>}
      </div>
      <div id="nav-menu" className="nav__menu" hidden={folded}>
        <ul className="nav__list">
          {ITEMS.map((item) => (
            <li key={item.label}>
              <a className="nav__link" href={routeToHash(item.route)} aria-current={item.matches(route) ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="nav__footer">
          <a className="nav__profile" href={routeToHash({ screen: 'account' })} data-testid="active-profile">
            <span className="nav__profile-label">Profile</span>
            <span className="nav__profile-name">{profile ? profile.name : data.profiles ? 'None selected' : '…'}</span>
            {data.info?.demoRunning && <span className="badge">demo running</span>}
          </a>
          <ThemeToggle />
        </div>
      </div>
    </nav>
  );
}
