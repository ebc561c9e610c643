import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { parseRoute, type Route } from './lib/routes.js';

const listeners = new Set<() => void>();

export function navigate(href: string): void {
  if (href === location.pathname + location.hash) return;
  history.pushState(null, '', href);
  for (const l of listeners) l();
}

/** Replaces the current address (no new history entry) and tells the screens, as navigating does. */
export function replaceRoute(href: string): void {
  history.replaceState(null, '', href);
  for (const l of listeners) l();
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname));
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** An ordinary link (keyboard, middle click and "open in new tab" keep working) that navigates in place. */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.href);
  };
  return <a {...props} onClick={onClick} />;
}
