import { useEffect, useId, useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { Empty, ErrorNote, Field, Status } from '../components/ui.js';
import { graphql } from '../graphql.js';
import { formatBytes, formatTime } from '../lib/format.js';
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
const Search = graphql(`
  query KnowledgeSearch($input: KnowledgeQueryInput!) {
    knowledgeSearch(input: $input) { chunkId ref sourceName section page similarity text dossierName }
  }
`);

/** While a document is ingesting, its state is read again at this pace. */
const POLL_MS = 1000;

export default function KnowledgeScreen() {
  const client = useClient();
  const [{ data, error }, refetch] = useQuery({ query: KnowledgeQuery });
  const [actionError, setActionError] = useState<unknown>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const ingesting = data?.knowledgeSources.some((s) => s.status === 'ingesting') ?? false;

  useEffect(() => {
    if (!ingesting) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [ingesting]);

  const remove = async (id: string, name: string) => {
    if (!confirm(`Delete the document ${name}?`)) return;
    const res = await client.mutation(DeleteSource, { id }).toPromise();
    setActionError(res.error ?? null);
    reload();
  };

  return (
    <section aria-labelledby="knowledge-title">
      <h1 id="knowledge-title">Knowledge</h1>
      <ErrorNote error={error ?? actionError} />
      <div className="split">
        <div>
          <UploadForm collections={data?.knowledgeCollections ?? []} onUploaded={reload} />
          <CollectionForm onCreated={reload} />
        </div>
        <div>
          <h2>Documents</h2>
          {!data ? (
            <p>Loading…</p>
          ) : data.knowledgeSources.length === 0 ? (
            <Empty title="No documents yet">Upload a text, Markdown, HTML, PDF or Word file: once it is ready, agents can cite it.</Empty>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="hint" style={{ textAlign: 'left' }}>
                  Documents of the workspace, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Collection</th>
                    <th scope="col">State</th>
                    <th scope="col">Passages</th>
                    <th scope="col">Size</th>
                    <th scope="col">Updated</th>
                    <th scope="col">
                      <span className="skip">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.knowledgeSources.map((s) => (
                    <tr key={s.id} data-testid={`source-${s.name}`}>
                      <td>{s.name}</td>
                      <td>{s.collection?.name ?? '—'}</td>
                      <td>
                        <Status value={s.status} />
                        {s.error ? <div className="hint">{s.error}</div> : null}
                      </td>
                      <td>{s.chunkCount}</td>
                      <td>{formatBytes(s.sizeBytes)}</td>
                      <td>{formatTime(s.updatedAt)}</td>
                      <td>
                        <button type="button" className="danger" onClick={() => void remove(s.id, s.name)} aria-label={`Delete ${s.name}`}>
                          Delete
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h2>Collections</h2>
          {data && data.knowledgeCollections.length === 0 ? (
            <p className="hint">No collections yet: create one to group documents into a dossier an agent can be limited to.</p>
          ) : (
            <ul className="list">
              {data?.knowledgeCollections.map((c) => (
                <li key={c.id}>
                  <strong>{c.name}</strong> <span className="hint">{c.sourceCount} documents</span>
                  {c.description ? <p className="hint">{c.description}</p> : null}
                </li>
              ))}
            </ul>
          )}
          <SearchForm />
        </div>
      </div>
    </section>
  );
}

function UploadForm({ collections, onUploaded }: { collections: { id: string; name: string }[]; onUploaded: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [collectionId, setCollectionId] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const fileId = useId();
  const colId = useId();
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!file) return;
    const form = e.currentTarget;
    setError(null);
    setDone(null);
    setProgress(0);
    try {
      const source = await uploadDocument(file, collectionId || null, setProgress);
      setDone(`${source.name} uploaded: ingestion is running.`);
      setFile(null);
      form.reset();
      onUploaded();
    } catch (err) {
      setError(err);
    } finally {
      setProgress(null);
    }
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="upload-title">
      <h2 id="upload-title" style={{ marginTop: 0 }}>
        Upload a document
      </h2>
      <div className="field">
        <label htmlFor={fileId}>Document</label>
        <input id={fileId} type="file" accept=".txt,.md,.markdown,.html,.htm,.pdf,.docx,text/*" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </div>
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
      {progress !== null ? <progress value={progress} max={1} aria-label="Upload progress" /> : null}
      <ErrorNote error={error} />
      {done ? <p role="status">{done}</p> : null}
      <button type="submit" className="primary" disabled={!file || progress !== null}>
        Upload
      </button>
    </form>
  );
}

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
      setName('');
      setDescription('');
      onCreated();
    }
  };
  return (
    <form className="card" style={{ marginTop: '1rem' }} onSubmit={(e) => void submit(e)} aria-labelledby="collection-title">
      <h2 id="collection-title" style={{ marginTop: 0 }}>
        New collection
      </h2>
      <Field label="Collection name" value={name} onChange={setName} required />
      <Field label="Description" value={description} onChange={setDescription} />
      <ErrorNote error={error} />
      <button type="submit">Create collection</button>
    </form>
  );
}

function SearchForm() {
  const [query, setQuery] = useState('');
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [{ data, error, fetching }] = useQuery({ query: Search, variables: { input: { query: submitted ?? '', topK: 5 } }, pause: !submitted });
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
        <input aria-label="Search the documents" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="What are you looking for?" style={{ flex: 1 }} />
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={error} />
      {submitted && data ? (
        data.knowledgeSearch.length === 0 ? (
          <p className="hint">Nothing found. Try other words, or check that the documents are ready.</p>
        ) : (
          <ol className="list" aria-busy={fetching} style={{ marginTop: '0.75rem' }}>
            {data.knowledgeSearch.map((r) => (
              <li key={r.chunkId}>
                <strong>{r.sourceName}</strong>{' '}
                <span className="hint">
                  {r.section ? `${r.section} · ` : ''}page {r.page} · score {r.similarity.toFixed(2)}
                </span>
                <blockquote>{r.text}</blockquote>
              </li>
            ))}
          </ol>
        )
      ) : null}
    </>
  );
}
