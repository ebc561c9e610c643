import { useState } from 'react';
import { useQuery } from 'urql';
import { Empty, ErrorNote, Status } from '../components/ui.js';
import { graphql, type ResultOf } from '../graphql.js';
import { formatTime } from '../lib/format.js';

const RegisterQuery = graphql(`
  query Register {
    registreSummary { chain { valid length firstBroken { seq reason } } counts { month kind count } }
    registre(limit: 50) {
      certificates {
        id seq kind createdAt route model modelAddress requestHash answerHash prevHash hash signature keyId algorithm outcome
        usage { totalTokens }
      }
      nextCursor
    }
  }
`);
const VerifyQuery = graphql(`
  query ProofVerification($id: ID!) { proofVerification(id: $id) { id valid checks { hash signature chain } failedCheck reason } }
`);

type Certificate = ResultOf<typeof RegisterQuery>['registre']['certificates'][number];

export default function ProofsScreen() {
  const [{ data, error }] = useQuery({ query: RegisterQuery });
  const [selected, setSelected] = useState<Certificate | null>(null);
  const chain = data?.registreSummary.chain;
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
          {!data ? (
            error ? null : <p>Loading…</p>
          ) : data.registre.certificates.length === 0 ? (
            <Empty title="No certificates yet">Each gateway call, chat turn and verifier report adds a signed certificate here.</Empty>
          ) : (
            <ul className="list" aria-label="Certificates">
              {data.registre.certificates.map((c) => (
                <li key={c.id}>
                  <button type="button" className="link-button" onClick={() => setSelected(c)} aria-pressed={selected?.id === c.id}>
                    #{c.seq} {c.kind} · {formatTime(c.createdAt)}
                  </button>
                  <div className="hint">{c.route}</div>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>{selected ? <CertificateView key={selected.id} cert={selected} /> : <p className="hint">Choose a certificate to see it and check it.</p>}</div>
      </div>
    </section>
  );
}

function CertificateView({ cert }: { cert: Certificate }) {
  const [checking, setChecking] = useState(false);
  const [{ data, error, fetching }] = useQuery({ query: VerifyQuery, variables: { id: cert.id }, pause: !checking, requestPolicy: 'network-only' });
  const rows: [string, string][] = [
    ['Id', cert.id],
    ['Position', String(cert.seq)],
    ['Kind', cert.kind],
    ['Created', formatTime(cert.createdAt)],
    ['Route', cert.route],
    ['Model asked', cert.modelAddress],
    ['Model that answered', cert.model],
    ['Tokens', String(cert.usage.totalTokens)],
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
