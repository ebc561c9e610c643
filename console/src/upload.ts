import { stringifyDocument } from '@urql/core';
import type { ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';
import { graphql } from './graphql.js';
import { ConsoleError, failureOf, NETWORK_MESSAGE } from './lib/errors.js';

export const UploadKnowledgeSource = graphql(`
  mutation UploadKnowledgeSource($input: UploadKnowledgeSourceInput!) {
    uploadKnowledgeSource(input: $input) { id name status }
  }
`);

/** A file's content as base64 (what GraphQL's upload inputs take). */
export function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new ConsoleError('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/**
 * Runs a typed GraphQL mutation (gql.tada document) with XMLHttpRequest, whose upload events give the
 * progress of a large body (fetch has none for request bodies). Answers the typed data, or rejects with
 * the service's message in words.
 */
export function mutateWithProgress<D extends TadaDocumentNode<any, any>>(
  document: D,
  variables: VariablesOf<D>,
  onProgress: (fraction: number) => void,
): Promise<ResultOf<D>> {
  const body = JSON.stringify({ query: stringifyDocument(document), variables });
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/graphql');
    xhr.setRequestHeader('content-type', 'application/json');
    xhr.setRequestHeader('accept', 'application/graphql-response+json, application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ConsoleError(NETWORK_MESSAGE));
    xhr.onload = () => {
      let parsed: { data?: ResultOf<D> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        return reject(new ConsoleError(xhr.status >= 500 ? 'The service failed to answer. Try again in a moment.' : `Upload refused (${xhr.status}).`));
      }
      if (parsed.errors?.length || !parsed.data) {
        const f = failureOf({ graphQLErrors: parsed.errors ?? [] });
        return reject(new ConsoleError(f.message, f.code));
      }
      onProgress(1);
      resolve(parsed.data);
    };
    xhr.send(body);
  });
}

/** Sends a document to uploadKnowledgeSource (base64 in the JSON body), with its progress. */
export async function uploadDocument(
  file: File,
  collectionId: string | null,
  onProgress: (fraction: number) => void,
): Promise<ResultOf<typeof UploadKnowledgeSource>['uploadKnowledgeSource']> {
  const contentBase64 = await base64Of(file);
  const input = { filename: file.name, mimeType: file.type || null, contentBase64, ...(collectionId ? { collectionId } : {}) };
  const data = await mutateWithProgress(UploadKnowledgeSource, { input }, onProgress);
  return data.uploadKnowledgeSource;
}
