import { pipeline, type Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, interceptors, type Dispatcher } from 'undici';

/** Statuses whose response has no body (the Fetch standard's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const REDIRECTS = 20;
/** The codings fetch asks for and decodes; so does this one. */
const ACCEPT_ENCODING = 'gzip, deflate, br';
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress };

/** A `fetch` for an official SDK (its `fetch` option), and the end of its connections. */
export interface SdkFetch {
  readonly fetch: typeof globalThis.fetch;
  close(): Promise<void>;
}

/**
 * The `fetch` an official SDK calls for the agents' model calls (issue 28): a request the SDK has built (a
 * string body, its headers and its own abort signal) goes to undici's `request` on one keep-alive dispatcher of
 * the provider's, instead of through Node's global fetch (its Request, Headers and web-streams stack: 13 to 26 %
 * of a chat turn's CPU). The SDK stays in charge of everything else: its retries with backoff, its timeouts
 * (the signal), its errors and types. What fetch does that the SDK relies on is kept: redirects are followed,
 * a compressed answer is decompressed, a connection failure rejects (the SDK's connection error, retried), an
 * aborted call rejects with an `AbortError` (the SDK's timeout or abort). A JSON answer is read whole before the
 * Response is made (its timeout covers the body); an event stream is handed over as it arrives. Anything else
 * (a Request object, a streamed or form body) goes to the global fetch.
 */
export function sdkFetch(): SdkFetch {
  const agent = new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 60_000 });
  const dispatcher: Dispatcher = agent.compose(interceptors.redirect({ maxRedirections: REDIRECTS }));
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const { body } = init;
    if (input instanceof Request || !(body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array)) {
      return globalThis.fetch(input, init);
    }
    const url = typeof input === 'string' ? new URL(input) : input;
    const method = (init.method ?? 'GET').toUpperCase();
    const res = await dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: method as Dispatcher.HttpMethod,
      headers: headerList(init.headers),
      body: body ?? null,
      signal: init.signal ?? undefined,
    });
    const status = res.statusCode;
    const bodyless = method === 'HEAD' || NULL_BODY.has(status);
    const coding = valueOf(res.headers['content-encoding'])?.trim().toLowerCase();
    const decoding = !bodyless && coding !== undefined && coding !== '' && coding !== 'identity';
    // The Response's headers are made once, from these pairs (a Headers built first would be copied into it).
    const headers: [string, string][] = [];
    for (const name in res.headers) {
      const value = res.headers[name];
      // A decoded body's headers describe the decoded body.
      if (value === undefined || (decoding && (name === 'content-encoding' || name === 'content-length'))) continue;
      if (typeof value === 'string') headers.push([name, value]);
      else for (const v of value) headers.push([name, v]);
    }
    if (bodyless) {
      await res.body.dump();
      return new Response(null, { status, headers });
    }
    const source = decoding ? decoded(res.body, coding) : res.body;
    const type = valueOf(res.headers['content-type']) ?? '';
    if (isJson(type)) return new ReadAnswer(await (decoding ? text(source) : res.body.text()), { status, headers });
    if (!type.startsWith('text/event-stream')) return new Response(await buffer(source), { status, headers });
    const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel() {
          source.destroy();
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(stream, { status, headers });
  };
  return { fetch, close: () => agent.close() };
}

/** A JSON media type, as the SDKs tell one (`application/json`, `…+json`). */
function isJson(contentType: string): boolean {
  const media = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return media.includes('application/json') || media.endsWith('+json');
}

/**
 * A JSON answer already read whole: `text()` and `json()` (all the SDKs read of one) answer from the text at once
 * instead of through a web stream of its bytes made for the Response (issue 28, chatturn4). Its `body` stays
 * empty; anything else than `text()` and `json()` reads an empty body.
 */
class ReadAnswer extends Response {
  readonly #text: string;

  constructor(body: string, init: ResponseInit) {
    super(null, init);
    this.#text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  }

  override text(): Promise<string> {
    return Promise.resolve(this.#text);
  }

  override json(): Promise<unknown> {
    try {
      return Promise.resolve(JSON.parse(this.#text));
    } catch (err) {
      return Promise.reject(err);
    }
  }
}

/** Headers as undici takes them (name, value, name, value…), asking for the codings fetch decodes unless told otherwise. */
function headerList(init: HeadersInit | undefined): string[] {
  const list: string[] = [];
  let encoding = false;
  if (init !== undefined) {
    (init instanceof Headers ? init : new Headers(init)).forEach((value, name) => {
      encoding ||= name === 'accept-encoding';
      list.push(name, value);
    });
  }
  if (!encoding) list.push('accept-encoding', ACCEPT_ENCODING);
  return list;
}

/** A header's value as `Headers#get` gives it (several joined with `, `). */
function valueOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The body decoded as fetch decodes it (one coding of gzip, deflate or br); a coding it cannot decode fails the
 * call as fetch's body would.
 */
function decoded(body: Readable, coding: string): Readable {
  const decoder = DECODERS[coding];
  if (!decoder) {
    body.destroy();
    throw new TypeError(`unsupported content-encoding: ${coding}`);
  }
  // Destroying or failing either end ends both (the connection is not left half read).
  return pipeline(body, decoder(), () => {}) as unknown as Readable;
}
