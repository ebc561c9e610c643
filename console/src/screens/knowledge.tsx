import { useEffect, useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { ListShell } from '../components/list-shell.js';
import { toastError, toastSuccess } from '../components/toasts.js';
import { Empty, ErrorNote, Field, FormFailure, Status } from '../components/ui.js';
import { graphql, type ResultOf } from '../graphql.js';
import { messageOf } from '../lib/errors.js';
import { count, formatBytes, formatTime } from '../lib/format.js';
import { markWords, nextPollDelay, searchWords } from '../lib/highlight.js';
import { uploadOutcome, type SourceState } from '../lib/upload-outcome.js';
import { uploadDocument } from '../upload.js';

const KnowledgeQuery = graphql(`
  query Knowledge {
    knowledgeCollections { id name description sourceCount }
    knowledgeSources { id name filename status error chunkCount sizeBytes updatedAt collectionId collection { id name } }
  }
`);
const CreateCollection = graphql(`
  mutation CreateCollection($input: KnowledgeCollectionInput!) { createKnowledgeCollection(input: $input) { id } }
`);
const DeleteSource = graphql(`mutation DeleteSource($id: ID!) { deleteKnowledgeSource(id: $id) }`);
const DeleteCollection = graphql(`mutation DeleteCollection($id: ID!) { deleteKnowledgeCollection(id: $id) }`);
const Search = graphql(`
  query KnowledgeSearch($input: KnowledgeQueryInput!) {
    knowledgeSearch(input: $input) { chunkId ref sourceId sourceName section page similarity text dossierName }
  }
`);
const Passages = graphql(`query KnowledgePassages($id: ID!) { knowledgePassages(sourceId: $id) { id ordinal section page text } }`);

type Source = ResultOf<typeof KnowledgeQuery>['knowledgeSources'][number];

/** What the preview shows: a document, the passages a search found in it, and the words searched. */
interface PreviewTarget {
  sourceId: string;
  name: string;
  found: string[];
  words: string[];
}

export default function KnowledgeScreen() {
  const client = useClient();
  const [{ data, error, fetching }, refetch] = useQuery({ query: KnowledgeQuery });
  const [preview, setPreview] = useState<PreviewTarget | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const ingesting = data?.knowledgeSources.some((s) => s.status === 'ingesting') ?? false;

  // While a document ingests, its state is read again: after 1 s, then less and less often (at most every 8 s).
  const attempt = useRef(0);
  useEffect(() => {
    if (!ingesting) {
      attempt.current = 0;
      return;
    }
    const timer = setTimeout(() => {
      attempt.current += 1;
      reload();
    }, nextPollDelay(attempt.current));
    return () => clearTimeout(timer);
  }, [ingesting, data]);

  const removeSource = async (s: Source) => {
    const res = await client.mutation(DeleteSource, { id: s.id }).toPromise();
    if (res.error) throw res.error;
    toastSuccess(`${s.name} deleted`);
    if (preview?.sourceId === s.id) setPreview(null);
    reload();
  };
  const removeCollection = async (c: { id: string; name: string }) => {
    const res = await client.mutation(DeleteCollection, { id: c.id }).toPromise();
    if (res.error) throw res.error;
    toastSuccess(`Collection ${c.name} deleted`);
    reload();
  };

  return (
    <section aria-labelledby="knowledge-title">
      <h1 id="knowledge-title">Knowledge</h1>
      <div className="split">
        <div>
          <UploadForm collections={data?.knowledgeCollections ?? []} sources={data?.knowledgeSources ?? []} onUploaded={reload} />
          <CollectionForm onCreated={reload} />
        </div>
        <div>
          <h2 style={{ marginTop: 0 }}>Documents</h2>
          <ListShell
            label="Documents"
            items={data?.knowledgeSources}
            fetching={fetching}
            error={error}
            searchText={(s) => `${s.name} ${s.collection?.name ?? ''} ${s.status}`}
            empty={<Empty title="No documents yet">Upload text, Markdown, HTML, PDF or Word files (several at once, or drop them on the upload box): once ready, an agent cites those checked in its Knowledge scope (Agents, Edit).</Empty>}
          >
            {(items) => (
              <ul className="list documents" aria-label="Documents">
                {items.map((s) => (
                  <li key={s.id} data-testid={`source-${s.name}`} aria-label={s.name}>
                    <div className="row">
                      <strong className="doc-name">{s.name}</strong>
                      <Status value={s.status} />
                    </div>
                    <p className="hint">
                      {s.collection?.name ?? 'No collection'} · {count(s.chunkCount, 'passage')} · {formatBytes(s.sizeBytes)} · {formatTime(s.updatedAt)}
                    </p>
                    {s.error ? <p className="hint">{s.error}</p> : null}
                    <div className="row">
                      <button type="button" disabled={s.status !== 'ready'} onClick={() => setPreview({ sourceId: s.id, name: s.name, found: [], words: [] })} aria-label={`Preview ${s.name}`}>
                        Preview
                      </button>
                      <ConfirmDelete what={`the document ${s.name}`} text="Delete" consequence="Its passages go with it; agents stop citing it." onConfirm={() => removeSource(s)} />
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </ListShell>
          {preview ? <Preview key={`${preview.sourceId}:${preview.found.join(',')}`} target={preview} onClose={() => setPreview(null)} /> : null}
          <SearchForm onOpen={setPreview} />
          <h2>Collections</h2>
          {data && data.knowledgeCollections.length === 0 ? (
            <Empty title="No collections yet">Create one to group documents into a dossier; an agent can then be limited to it.</Empty>
          ) : (
            <ul className="list" aria-label="Collections">
              {data?.knowledgeCollections.map((c) => (
                <li key={c.id}>
                  <div className="row">
                    <strong>{c.name}</strong> <span className="hint">{count(c.sourceCount, 'document')}</span>
                    <ConfirmDelete
                      what={`the collection ${c.name}`}
                      text="Delete"
                      consequence="Its documents stay, outside any collection; agents limited to it lose the link."
                      onConfirm={() => removeCollection(c)}
                    />
                  </div>
                  {c.description ? <p className="hint">{c.description}</p> : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}

interface Queued {
  key: string;
  file: File;
  progress: number | null;
  /** The service's refusal, in words, when the upload failed. */
  outcome: string | null;
  failed: boolean;
  /** The document the upload created; its line follows that document's state in the list. */
  source: { id: string; name: string } | null;
}

/** Still to send: neither uploaded nor refused. */
const isWaiting = (x: Queued): boolean => x.outcome === null && x.source === null;

function Outcome({ text, failed }: { text: string; failed: boolean }) {
  return (
    <p className={failed ? 'error' : 'hint'} role={failed ? 'alert' : 'status'}>
      {text}
    </p>
  );
}

/** Several files at once, chosen or dropped; sent one after another, each with its progress and outcome. */
function UploadForm({
  collections,
  sources,
  onUploaded,
}: {
  collections: { id: string; name: string }[];
  sources: (SourceState & { id: string })[];
  onUploaded: () => void;
}) {
  const [queue, setQueue] = useState<Queued[]>([]);
  const [collectionId, setCollectionId] = useState('');
  const [sending, setSending] = useState(false);
  const [over, setOver] = useState(false);
  const fileId = useId();
  const colId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const add = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const now = Date.now();
    setQueue((q) => [...q.filter((x) => isWaiting(x) || x.failed), ...[...files].map((file, i) => ({ key: `${now}-${i}-${file.name}`, file, progress: null, outcome: null, failed: false, source: null }))]);
  };
  const patch = (key: string, change: Partial<Queued>) => setQueue((q) => q.map((x) => (x.key === key ? { ...x, ...change } : x)));
  const drop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    add(e.dataTransfer.files);
  };
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const waiting = queue.filter(isWaiting);
    if (waiting.length === 0) return;
    setSending(true);
    let sent = 0;
    for (const item of waiting) {
      patch(item.key, { progress: 0 });
      try {
        const source = await uploadDocument(item.file, collectionId || null, (p) => patch(item.key, { progress: p }));
        patch(item.key, { progress: null, source: { id: source.id, name: source.name } });
        sent += 1;
      } catch (err) {
        patch(item.key, { progress: null, outcome: messageOf(err), failed: true });
        toastError(err, `${item.file.name} was not uploaded`);
      }
    }
    setSending(false);
    if (input.current) input.current.value = '';
    if (sent > 0) {
      toastSuccess(sent === 1 ? 'One document uploaded' : `${sent} documents uploaded`);
      onUploaded();
    }
  };
  const waiting = queue.filter(isWaiting).length;
  const stateOf = (id: string) => sources.find((s) => s.id === id);
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="upload-title">
      <h2 id="upload-title" style={{ marginTop: 0 }}>
        Upload documents
      </h2>
      <div
        className={`dropzone${over ? ' over' : ''}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <label htmlFor={fileId}>Documents</label>
        <input
          id={fileId}
          ref={input}
          type="file"
          multiple
          aria-describedby={hintId}
          accept=".txt,.md,.markdown,.html,.htm,.pdf,.docx,text/*"
          onChange={(e) => add(e.target.files)}
        />
        <small id={hintId} className="hint">
          Choose several files, or drop them here.
        </small>
      </div>
      {queue.length > 0 ? (
        <ul className="upload-queue" aria-label="Files to upload">
          {queue.map((x) => (
            <li key={x.key}>
              <span className="doc-name">{x.file.name}</span> <span className="hint">{formatBytes(x.file.size)}</span>
              {x.progress !== null ? <progress value={x.progress} max={1} aria-label={`Upload progress of ${x.file.name}`} /> : null}
              {x.outcome ? (
                <p className="error" role="alert">
                  {x.outcome}
                </p>
              ) : x.source ? (
                <Outcome {...uploadOutcome(x.source.name, stateOf(x.source.id))} />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="field">
        <label htmlFor={colId}>Collection</label>
        <select id={colId} value={collectionId} onChange={(e) => setCollectionId(e.target.value)}>
          <option value="">No collection</option>
          {collections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="primary" disabled={waiting === 0 || sending}>
        {waiting > 1 ? `Upload ${waiting} files` : 'Upload'}
      </button>
    </form>
  );
}

/** The form's fields in words, by their API names (a refusal names the field as the form does). */
const COLLECTION_LABELS = { name: 'Collection name', description: 'Description' } as const;

function CollectionForm({ onCreated }: { onCreated: () => void }) {
  const client = useClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await client.mutation(CreateCollection, { input: { name, ...(description ? { description } : {}) } }).toPromise();
    setError(res.error ?? null);
    if (!res.error) {
      toastSuccess(`Collection ${name} created`);
      setName('');
      setDescription('');
      onCreated();
    }
  };
  return (
    <FormFailure error={error} labels={COLLECTION_LABELS}>
      <form className="card" style={{ marginTop: '1rem' }} onSubmit={(e) => void submit(e)} aria-labelledby="collection-title">
        <h2 id="collection-title" style={{ marginTop: 0 }}>
          New collection
        </h2>
        <Field label="Collection name" name="name" value={name} onChange={setName} required />
        <Field label="Description" name="description" value={description} onChange={setDescription} />
        <ErrorNote />
        <button type="submit">Create collection</button>
      </form>
    </FormFailure>
  );
}

function Marked({ text, words }: { text: string; words: readonly string[] }) {
  return (
    <>
      {markWords(text, words).map((p, i) => (p.marked ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </>
  );
}

/** The document's passages in order; those the search found are marked (with the words searched), the first brought into view. */
function Preview({ target, onClose }: { target: PreviewTarget; onClose: () => void }) {
  const [{ data, error }] = useQuery({ query: Passages, variables: { id: target.sourceId } });
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef<HTMLLIElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  useEffect(() => {
    if (data) first.current?.scrollIntoView({ block: 'center' });
  }, [data]);
  const firstFound = target.found.find((id) => data?.knowledgePassages.some((p) => p.id === id));
  return (
    <section className="card preview" aria-labelledby="preview-title">
      <div className="row">
        <h2 id="preview-title" ref={heading} tabIndex={-1} style={{ margin: 0, flex: 1 }}>
          Preview of {target.name}
        </h2>
        <button type="button" onClick={onClose}>
          Close preview
        </button>
      </div>
      {target.found.length > 0 ? <p className="hint">The passages the search found are marked.</p> : null}
      <ErrorNote error={error} />
      {!data ? (
        error ? null : <p>Loading…</p>
      ) : data.knowledgePassages.length === 0 ? (
        <p className="hint">No passages yet: the document is still ingesting or could not be read.</p>
      ) : (
        <ol className="passages">
          {data.knowledgePassages.map((p) => {
            const found = target.found.includes(p.id);
            return (
              <li key={p.id} ref={p.id === firstFound ? first : undefined} className={found ? 'found' : undefined} aria-label={found ? `Found passage, page ${p.page}` : undefined}>
                {p.section ? <span className="hint">{p.section} · page {p.page}</span> : null}
                <p>{found ? <Marked text={p.text} words={target.words} /> : p.text}</p>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

function SearchForm({ onOpen }: { onOpen: (t: PreviewTarget) => void }) {
  const [query, setQuery] = useState('');
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [{ data, error, fetching }] = useQuery({ query: Search, variables: { input: { query: submitted ?? '', topK: 5 } }, pause: !submitted });
  const words = searchWords(submitted ?? '');
  const results = data?.knowledgeSearch ?? [];
  return (
    <>
      <h2>Search</h2>
      <form
        className="row"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(query.trim() || null);
        }}
      >
        <input aria-label="Search the documents" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="What are you looking for?" style={{ flex: 1, minWidth: 0 }} />
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={error} />
      {submitted && data ? (
        results.length === 0 ? (
          <p className="hint">Nothing found. Try other words, or check that the documents are ready.</p>
        ) : (
          <ol className="list" aria-busy={fetching} aria-label="Search results" style={{ marginTop: '0.75rem' }}>
            {results.map((r) => (
              <li key={r.chunkId}>
                <strong className="doc-name">{r.sourceName}</strong>{' '}
                <span className="hint">
                  {r.section ? `${r.section} · ` : ''}page {r.page} · score {r.similarity.toFixed(2)}
                </span>
                <blockquote>
                  <Marked text={r.text} words={words} />
                </blockquote>
                <button
                  type="button"
                  onClick={() =>
                    onOpen({ sourceId: r.sourceId, name: r.sourceName, found: results.filter((x) => x.sourceId === r.sourceId).map((x) => x.chunkId), words })
                  }
                >
                  Show in {r.sourceName}
                </button>
              </li>
            ))}
          </ol>
        )
      ) : null}
    </>
  );
}
