import { endianness } from 'node:os';
import OpenAI from 'openai';
import { z } from 'zod';

/** Unset and empty variables both mean "not configured" (an `.env` line `KEY=` is common). */
const optionalText = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().optional());
const positiveInt = (def: number) => optionalText.pipe(z.coerce.number<string | undefined>().int().positive().default(def));

const EmbeddingsEnvSchema = z
  .object({
    SVC_EMBEDDINGS_BASE_URL: optionalText.pipe(z.url().optional()),
    SVC_EMBEDDINGS_MODEL: optionalText,
    SVC_EMBEDDINGS_API_KEY: optionalText,
    SVC_EMBEDDINGS_TIMEOUT_MS: positiveInt(30_000),
    SVC_EMBEDDINGS_BATCH: positiveInt(64),
    SVC_EMBEDDINGS_MAX_SCAN: positiveInt(5_000),
    SVC_SEARCH_SYNONYMS: z.enum(['on', 'off']).default('on'),
    SVC_SEARCH_RANK_CANDIDATES: optionalText.pipe(z.coerce.number<string | undefined>().int().min(0).default(1_000)),
  })
  .refine((e) => !e.SVC_EMBEDDINGS_BASE_URL || e.SVC_EMBEDDINGS_MODEL, {
    message: 'SVC_EMBEDDINGS_MODEL is required with SVC_EMBEDDINGS_BASE_URL',
    path: ['SVC_EMBEDDINGS_MODEL'],
  });

export interface EmbeddingsConfig {
  /** OpenAI-compatible root (ending with `/v1` for most servers); null: hybrid retrieval off. */
  baseUrl: string | null;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  /** Passages per embeddings request. */
  batch: number;
  /** Without pgvector: the most passages one search ranks in process (docs/knowledge.md, "Hybrid retrieval"). */
  maxScan: number;
  /** Knowledge search adds synonyms, translations and word forms below the exact words (SVC_SEARCH_SYNONYMS, default on). */
  synonyms: boolean;
  /** Full-text search ranks at most this many matching passages (SVC_SEARCH_RANK_CANDIDATES, default 1 000; 0: every match). */
  rankCandidates: number;
}

/** Reads the embeddings settings from an environment record; throws a ZodError when invalid. */
export function loadEmbeddingsConfig(env: Record<string, string | undefined>): EmbeddingsConfig {
  const e = EmbeddingsEnvSchema.parse(env);
  return {
    baseUrl: e.SVC_EMBEDDINGS_BASE_URL ?? null,
    model: e.SVC_EMBEDDINGS_MODEL ?? '',
    apiKey: e.SVC_EMBEDDINGS_API_KEY,
    timeoutMs: e.SVC_EMBEDDINGS_TIMEOUT_MS,
    batch: e.SVC_EMBEDDINGS_BATCH,
    maxScan: e.SVC_EMBEDDINGS_MAX_SCAN,
    synonyms: e.SVC_SEARCH_SYNONYMS === 'on',
    rankCandidates: e.SVC_SEARCH_RANK_CANDIDATES,
  };
}

/**
 * An OpenAI-compatible embeddings endpoint (`POST {baseUrl}/embeddings`: OpenAI, Ollama, vLLM, LiteLLM,
 * text-embeddings-inference...), through the official `openai` client. Vectors come back scaled to unit
 * length, so cosine similarity is a dot product.
 */
export class EmbeddingsClient {
  readonly model: string;
  readonly #client: OpenAI;

  constructor(config: EmbeddingsConfig & { baseUrl: string }) {
    this.model = config.model;
    this.#client = new OpenAI({
      baseURL: config.baseUrl,
      apiKey: config.apiKey || 'not-needed',
      maxRetries: 1,
      timeout: config.timeoutMs,
    });
  }

  /** One vector per text, in order. Throws when the endpoint fails or answers out of shape. */
  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const res = await this.#client.embeddings.create({ model: this.model, input: texts, encoding_format: 'float' }, { signal });
    const out: (Float32Array | undefined)[] = new Array(texts.length);
    for (const item of res.data) {
      if (!Number.isInteger(item.index) || item.index < 0 || item.index >= texts.length) throw new Error('embeddings endpoint answered an unknown index');
      out[item.index] = unitVector(item.embedding);
    }
    const dims = out[0]?.length;
    if (!dims || out.some((v) => !v || v.length !== dims)) throw new Error('embeddings endpoint answered missing or uneven vectors');
    return out as Float32Array[];
  }
}

/** The vector scaled to length 1 (a zero vector stays zero). */
export function unitVector(values: ArrayLike<number>): Float32Array {
  const v = Float32Array.from(values as ArrayLike<number>);
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    if (!Number.isFinite(v[i]!)) throw new Error('embeddings endpoint answered a non-finite value');
    norm += v[i]! * v[i]!;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/** Dot product of two unit vectors of one length: their cosine similarity. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Little-endian float32 bytes, as stored in `knowledge_chunk_embedding.embedding`. */
export function vectorBytes(v: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(v.length * 4);
  for (let i = 0; i < v.length; i++) out.writeFloatLE(v[i]!, i * 4);
  return out;
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** The stored bytes as a vector: one aligned copy on little-endian machines (a read per value elsewhere). */
export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  if (LITTLE_ENDIAN) return new Float32Array(Uint8Array.prototype.slice.call(bytes).buffer, 0, bytes.byteLength >> 2);
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const v = new Float32Array(buf.length / 4);
  for (let i = 0; i < v.length; i++) v[i] = buf.readFloatLE(i * 4);
  return v;
}

/** pgvector's text form, `[0.1,0.2,...]`. */
export const vectorLiteral = (v: Float32Array): string => `[${Array.from(v).join(',')}]`;
