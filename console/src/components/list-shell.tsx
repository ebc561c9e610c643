import { useDeferredValue, useId, useState, type ReactNode } from 'react';
import { ErrorNote } from './ui.js';
import { inSentence } from '../lib/format.js';

/**
 * The shape every list that grows shares: loading, the error in words, an empty state that says what
 * to do next, a search box, and "Load more". The list arrives whole (most of the service's lists) and is
 * searched and shown a page at a time here; a list the service pages with a cursor passes `more`, and
 * "Load more" asks the service for the next page once the rows already fetched are all shown.
 */
export function ListShell<T>(props: {
  /** What the list holds, for the search box's label and the region's name: "API keys". */
  label: string;
  items: readonly T[] | undefined;
  fetching?: boolean;
  error?: unknown;
  /** Shown when there is nothing at all (not when a search matches nothing). */
  empty: ReactNode;
  /** The text a row is found by; without it there is no search box. */
  searchText?: (item: T) => string;
  pageSize?: number;
  /** The next page from the service (cursor lists). */
  more?: { hasMore: boolean; loading?: boolean; load: () => void };
  children: (items: readonly T[]) => ReactNode;
}) {
  const pageSize = props.pageSize ?? 20;
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState(pageSize);
  const deferred = useDeferredValue(query);
  const searchId = useId();
  const items = props.items;
  const words = deferred.trim().toLowerCase();
  const matching = items && props.searchText && words ? items.filter((i) => props.searchText!(i).toLowerCase().includes(words)) : items;
  const visible = matching?.slice(0, shown);
  const hiddenHere = (matching?.length ?? 0) > shown;
  const canLoad = hiddenHere || (props.more?.hasMore ?? false);
  const loadMore = () => {
    setShown((n) => n + pageSize);
    if (!hiddenHere) props.more?.load();
  };
  return (
    <div className="list-shell" aria-busy={props.fetching ?? items === undefined}>
      {props.searchText && items && items.length > 0 ? (
        <div className="field search">
          <label htmlFor={searchId}>Search {inSentence(props.label)}</label>
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setShown(pageSize);
            }}
          />
        </div>
      ) : null}
      <ErrorNote error={props.error} />
      {items === undefined ? (
        props.error ? null : <p className="hint">Loading…</p>
      ) : items.length === 0 ? (
        props.empty
      ) : matching && matching.length === 0 ? (
        <p className="hint" role="status">
          Nothing matches “{query.trim()}”.
        </p>
      ) : (
        <>
          {props.children(visible ?? [])}
          {canLoad ? (
            <button type="button" className="load-more" onClick={loadMore} disabled={props.more?.loading}>
              Load more
            </button>
          ) : null}
        </>
      )}
    </div>
  );
}
