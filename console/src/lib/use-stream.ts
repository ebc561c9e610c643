import { useCallback, useEffect, useRef, useState } from 'react';
import { stringifyDocument } from '@urql/core';
import type { ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';
import { useSse } from '../sse.js';
import { failureOf, type ServerFailure } from './errors.js';

/** Any gql.tada document: the types come from it. */
type Doc = TadaDocumentNode<any, any>;

export interface StreamSink<D extends Doc> {
  /** One event, typed from the subscription document (gql.tada). */
  next: (data: ResultOf<D>) => void;
  /** A GraphQL error in the stream or a failure of the connection, in words. */
  error: (failure: ServerFailure) => void;
  /** The service ended the stream. */
  complete?: () => void;
}

/**
 * The console's one way to follow a subscription over graphql-sse: a gql.tada document gives the
 * variables' and the events' types, so no screen writes its events by hand. `start` opens a stream
 * (closing the one before), `stop` closes it; leaving the screen closes it too. For a stream that
 * follows something shown (a run, a list), see `useSubscription`.
 */
export function useStream<D extends Doc>(document: D): { start: (variables: VariablesOf<D>, sink: StreamSink<D>) => void; stop: () => void } {
  const sse = useSse();
  const cancel = useRef<(() => void) | null>(null);
  const stop = useCallback(() => {
    cancel.current?.();
    cancel.current = null;
  }, []);
  useEffect(() => stop, [stop]);
  const start = useCallback(
    (variables: VariablesOf<D>, sink: StreamSink<D>) => {
      stop();
      const mine = sse.subscribe<ResultOf<D>>(
        { query: stringifyDocument(document), variables: variables as Record<string, unknown> },
        {
          next: (result) => {
            if (result.errors?.length) return sink.error(failureOf({ graphQLErrors: result.errors }));
            if (result.data) sink.next(result.data as ResultOf<D>);
          },
          error: (err) => sink.error(failureOf(err)),
          complete: () => {
            if (cancel.current === mine) cancel.current = null;
            sink.complete?.();
          },
        },
      );
      cancel.current = mine;
    },
    [sse, document, stop],
  );
  return { start, stop };
}

/**
 * Follows a subscription while `variables` is not null, folding each event into a state with `reduce`
 * (from `initial` at every new start). Answers the state, the failure if any, and whether the service
 * ended the stream.
 */
export function useSubscription<D extends Doc, S>(
  document: D,
  variables: VariablesOf<D> | null,
  reduce: (state: S, event: ResultOf<D>) => S,
  initial: S,
): { state: S; error: ServerFailure | null; ended: boolean } {
  const { start, stop } = useStream(document);
  const [state, setState] = useState(initial);
  const [error, setError] = useState<ServerFailure | null>(null);
  const [ended, setEnded] = useState(false);
  const key = variables === null ? null : JSON.stringify(variables);
  const reducer = useRef(reduce);
  reducer.current = reduce;
  useEffect(() => {
    if (key === null) return;
    setState(initial);
    setError(null);
    setEnded(false);
    start(JSON.parse(key) as VariablesOf<D>, {
      next: (event) => setState((s) => reducer.current(s, event)),
      error: (failure) => setError(failure),
      complete: () => setEnded(true),
    });
    return stop;
    // `initial` is read at each start only.
  }, [key, start, stop]);
  return { state, error, ended };
}
