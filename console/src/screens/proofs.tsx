import { useState } from 'react';
import { useQuery } from 'urql';
import { Empty, ErrorNote, Status } from '../components/ui.js';
import { readFragment } from 'gql.tada';
import { graphql, type FragmentOf, type ResultOf } from '../graphql.js';
import { formatTime } from '../lib/format.js';
import { proofLabelOf } from '../lib/proof-kind.js';
import { hrefOf } from '../lib/routes.js';
import { Link } from '../router.js';

const CERTIFICATE_FIELDS = graphql(`
  fragment CertificateFields on RegisterCertificate {
    id seq kind createdAt route model modelAddress requestHash answerHash prevHash hash signature keyId algorithm outcome
    usage { totalTokens }
  }
`);

const RegisterQuery = graphql(
  `
  query Register($kind: String, $cursor: String) {
    registreSummary { chain { valid length firstBroken { seq reason } } }
    registre(limit: 20, kind: $kind, cursor: $cursor) { certificates { ...CertificateFields } nextCursor }
  }
`,
  [CERTIFICATE_FIELDS],
);
const CertificateQuery = graphql(`query RegisterCertificate($id: ID!) { registreCertificate(id: $id) { ...CertificateFields } }`, [CERTIFICATE_FIELDS]);
const VerifyQuery = graphql(`
  query ProofVerification($id: ID!) { proofVerification(id: $id) { id valid checks { hash signature chain } failedCheck reason } }
`);

type Certificate = ResultOf<typeof CERTIFICATE_FIELDS>;
const certificatesOf = (refs: readonly FragmentOf<typeof CERTIFICATE_FIELDS>[]): Certificate[] => refs.map((r) => readFragment(CERTIFICATE_FIELDS, r));

const KINDS = [
  { value: '', label: 'All kinds' },
  { value: 'chat', label: 'Chat, debates and poste runs' },
  { value: 'gateway', label: 'Gateway calls' },
  { value: 'verify', label: 'Verifier reports' },
];

/** The register, page by page (newest first), and at `/console/proofs/<id>` one certificate: a link that survives a reload. */
export default function ProofsScreen({ id }: { id?: string }) {
  const [kind, setKind] = useState('');
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1];
  const [{ data, error, fetching }] = useQuery({ query: RegisterQuery, variables: { kind: kind || null, cursor } });
  const chain = data?.registreSummary.chain;
  const page = data?.registre;
  return (
    <section aria-labelledby="proofs-title">
      <h1 id="proofs-title">Proofs</h1>
      <ErrorNote error={error} />
      {chain ? (
        <p>
          The register holds {chain.length} certificates; the chain is <Status value={chain.valid ? 'valid' : 'broken'} />
          {chain.firstBroken ? ` from position ${chain.firstBroken.seq}: ${chain.firstBroken.reason}` : null}
        </p>
      ) : null}
      <div className="split">
        <div>
          <div className="field">
            <label htmlFor="proof-kind">Show</label>
            <select
              id="proof-kind"
              value={kind}
              onChange={(e) => {
                setKind(e.target.value);
                setCursors([null]);
              }}
            >
              {KINDS.map((k) => (
                <option key={k.value} value={k.value}>
                  {k.label}
                </option>
              ))}
            </select>
          </div>
          {!page ? (
            error ? null : <p>Loading…</p>
          ) : page.certificates.length === 0 ? (
            <Empty title={kind ? 'No certificate of this kind' : 'No certificates yet'}>
              {kind
                ? 'Choose “All kinds” to see the others.'
                : 'Chat with an agent, run a debate or a poste, or call the gateway with an API key: each answer adds a signed certificate here.'}
            </Empty>
          ) : (
            <>
              <ul className="list" aria-label="Certificates" aria-busy={fetching}>
                {certificatesOf(page.certificates).map((c) => (
                  <li key={c.id}>
                    <Link href={hrefOf('proofs', c.id)} aria-current={id === c.id ? 'page' : undefined}>
                      #{c.seq} {proofLabelOf(c)} · {c.model}
                    </Link>
                    <div className="hint">{formatTime(c.createdAt)}</div>
                  </li>
                ))}
              </ul>
              <nav className="row" aria-label="Pages of certificates" style={{ marginTop: '0.5rem' }}>
                <button type="button" disabled={cursors.length === 1} onClick={() => setCursors((cs) => cs.slice(0, -1))}>
                  Newer
                </button>
                <span className="hint">Page {cursors.length}</span>
                <button type="button" disabled={!page.nextCursor} onClick={() => page.nextCursor && setCursors((cs) => [...cs, page.nextCursor])}>
                  Older
                </button>
              </nav>
            </>
          )}
        </div>
        <div>{id ? <CertificateById key={id} id={id} /> : <p className="hint">Choose a certificate to see it and check it.</p>}</div>
      </div>
    </section>
  );
}

function CertificateById({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: CertificateQuery, variables: { id } });
  if (error) return <ErrorNote error={error} />;
  if (!data) return <p>Loading…</p>;
  return <CertificateView cert={readFragment(CERTIFICATE_FIELDS, data.registreCertificate)} />;
}

function CertificateView({ cert }: { cert: Certificate }) {
  const [checking, setChecking] = useState(false);
  const [{ data, error, fetching }] = useQuery({ query: VerifyQuery, variables: { id: cert.id }, pause: !checking, requestPolicy: 'network-only' });
  const rows: [string, string][] = [
    ['Id', cert.id],
    ['Kind', proofLabelOf(cert)],
    ['Model that answered', cert.model],
    ['Model asked', cert.modelAddress],
    ['Position', String(cert.seq)],
    ['Created', formatTime(cert.createdAt)],
    ['Route', cert.route],
    ['Tokens', String(cert.usage.totalTokens)],
    ...(cert.outcome ? ([['Ended', cert.outcome === 'failed' ? 'the model failed' : 'the client left']] as [string, string][]) : []),
    ['Request hash', cert.requestHash],
    ['Answer hash', cert.answerHash],
    ['Previous hash', cert.prevHash ?? '— (first)'],
    ['Hash', cert.hash],
    ['Signature', `${cert.algorithm} ${cert.signature}`],
    ['Signing key', cert.keyId],
  ];
  return (
    <article className="card" aria-labelledby="cert-title">
      <h2 id="cert-title" style={{ marginTop: 0 }}>
        Certificate #{cert.seq}
      </h2>
      <dl className="grid2" style={{ overflowWrap: 'anywhere' }}>
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt className="label">{k}</dt>
            <dd style={{ margin: 0 }}>
              <code>{v}</code>
            </dd>
          </div>
        ))}
      </dl>
      <button type="button" className="primary" onClick={() => setChecking(true)} disabled={fetching}>
        Verify
      </button>
      <ErrorNote error={error} />
      {checking && data ? (
        <p role="status">
          <Status value={data.proofVerification.valid ? 'valid' : 'broken'} /> hash {data.proofVerification.checks.hash ? 'ok' : 'wrong'} · signature{' '}
          {data.proofVerification.checks.signature ? 'ok' : 'wrong'} · chain {data.proofVerification.checks.chain ? 'ok' : 'broken'}
          {data.proofVerification.reason ? ` — ${data.proofVerification.reason}` : ''}
        </p>
      ) : null}
    </article>
  );
}
