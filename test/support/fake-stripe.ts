import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';

type Obj = Record<string, any>;

export interface FakeStripeRequest {
  method: string;
  path: string;
  body: Obj;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
}

/**
 * A loopback fake of the few Stripe endpoints the partner module calls (customers, checkout sessions,
 * setup intents, payment intents, payment-method detach), reached by the official SDK through its
 * host, port and protocol options (SVC_STRIPE_API_URL). It keeps what it was asked, lets a test play
 * the payer (`completeCheckout`), and signs webhook events with the SDK's own test-header helper.
 */
export interface FakeStripe {
  /** `http://127.0.0.1:<port>` for SVC_STRIPE_API_URL. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  requests: FakeStripeRequest[];
  sessions: Map<string, Obj>;
  /** Status the next payment intents get (`succeeded` by default; `processing` as a SEPA debit would). */
  intentStatus: 'succeeded' | 'processing' | 'requires_payment_method';
  /** The payer completes a checkout: paid (payment mode), or a payment method saved (setup mode). */
  completeCheckout(sessionId: string): Obj;
  /** A signed webhook delivery of an event carrying `object`: the raw body and its Stripe-Signature header. */
  signedEvent(type: string, object: Obj, secret?: string): { body: string; signature: string };
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

async function readBody(req: IncomingMessage): Promise<Obj> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return qs.parse(Buffer.concat(chunks).toString('utf8')) as Obj;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, Obj>();
  const setupIntents = new Map<string, Obj>();
  const fake = { intentStatus: 'succeeded' as FakeStripe['intentStatus'] };

  const routes: [string, RegExp, (m: RegExpExecArray, body: Obj) => [number, Obj]][] = [
    ['POST', /^\/v1\/customers$/, (_m, body) => [200, { id: id('cus'), object: 'customer', name: body.name ?? null, metadata: body.metadata ?? {} }]],
    [
      'POST',
      /^\/v1\/checkout\/sessions$/,
      (_m, body) => {
        const sessionId = id('cs_test');
        const items = (body.line_items ?? []) as Obj[];
        const amount = items.reduce((s, i) => s + Number(i.price_data?.unit_amount ?? 0) * Number(i.quantity ?? 1), 0);
        const session = {
          id: sessionId,
          object: 'checkout.session',
          mode: body.mode,
          url: `https://checkout.stripe.test/c/pay/${sessionId}`,
          status: 'open',
          payment_status: body.mode === 'setup' ? 'no_payment_required' : 'unpaid',
          amount_total: body.mode === 'setup' ? null : amount,
          currency: body.currency ?? items[0]?.price_data?.currency ?? 'eur',
          customer: body.customer ?? null,
          client_reference_id: body.client_reference_id ?? null,
          metadata: body.metadata ?? {},
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          payment_intent: null,
          setup_intent: null,
        };
        sessions.set(sessionId, session);
        return [200, session];
      },
    ],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, (m) => (sessions.has(m[1]) ? [200, sessions.get(m[1])!] : missing('checkout session', m[1]))],
    ['GET', /^\/v1\/setup_intents\/([^/]+)$/, (m) => (setupIntents.has(m[1]) ? [200, setupIntents.get(m[1])!] : missing('setup intent', m[1]))],
    [
      'POST',
      /^\/v1\/payment_intents$/,
      (_m, body) => [
        200,
        {
          id: id('pi'),
          object: 'payment_intent',
          amount: Number(body.amount),
          currency: body.currency,
          customer: body.customer,
          payment_method: body.payment_method,
          status: fake.intentStatus,
          metadata: body.metadata ?? {},
        },
      ],
    ],
    ['POST', /^\/v1\/payment_methods\/([^/]+)\/detach$/, (m) => [200, { id: m[1], object: 'payment_method', customer: null }]],
  ];

  function missing(what: string, which: string): [number, Obj] {
    return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${which}'` } }];
  }

  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = (req.url ?? '').split('?')[0];
    requests.push({
      method: req.method ?? '',
      path,
      body,
      authorization: req.headers.authorization,
      idempotencyKey: typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined,
    });
    let answer: [number, Obj] = missing('route', `${req.method} ${path}`);
    if (req.headers.authorization !== `Bearer ${secretKey}`) answer = [401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }];
    else {
      for (const [method, pattern, handle] of routes) {
        const m = method === req.method ? pattern.exec(path) : null;
        if (m) {
          answer = handle(m, body);
          break;
        }
      }
    }
    res.writeHead(answer[0], { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(answer[1]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const sdk = new Stripe(secretKey);

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    requests,
    sessions,
    get intentStatus() {
      return fake.intentStatus;
    },
    set intentStatus(v) {
      fake.intentStatus = v;
    },
    completeCheckout(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no such session ${sessionId}`);
      session.status = 'complete';
      if (session.mode === 'setup') {
        const intent = { id: id('seti'), object: 'setup_intent', status: 'succeeded', payment_method: id('pm'), customer: session.customer };
        setupIntents.set(intent.id, intent);
        session.setup_intent = intent.id;
      } else {
        session.payment_status = 'paid';
        session.payment_intent = id('pi');
      }
      return session;
    },
    signedEvent(type, object, secret = webhookSecret) {
      const body = JSON.stringify({ id: id('evt'), object: 'event', type, api_version: '2025-01-01', created: Math.floor(Date.now() / 1000), data: { object } });
      return { body, signature: sdk.webhooks.generateTestHeaderString({ payload: body, secret }) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
