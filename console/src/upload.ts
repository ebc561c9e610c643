import { ConsoleError, failureOf, NETWORK_MESSAGE } from './lib/errors.js';

const UPLOAD = `mutation UploadKnowledgeSource($input: UploadKnowledgeSourceInput!) {
  uploadKnowledgeSource(input: $input) { id name status }
}`;

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new ConsoleError('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/**
 * Sends a document to GraphQL's uploadKnowledgeSource (base64 in the JSON body) with XMLHttpRequest,
 * whose upload events give the progress (fetch has none for request bodies).
 */
export async function uploadDocument(file: File, collectionId: string | null, onProgress: (fraction: number) => void): Promise<{ id: string; name: string }> {
  const contentBase64 = await base64Of(file);
  const body = JSON.stringify({
    query: UPLOAD,
    variables: { input: { filename: file.name, mimeType: file.type || null, contentBase64, ...(collectionId ? { collectionId } : {}) } },
  });
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
      let parsed: { data?: { uploadKnowledgeSource?: { id: string; name: string } } | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        return reject(new ConsoleError(xhr.status >= 500 ? 'The service failed to answer. Try again in a moment.' : `Upload refused (${xhr.status}).`));
      }
      const source = parsed.data?.uploadKnowledgeSource;
      if (source) {
        onProgress(1);
        return resolve(source);
      }
      const f = failureOf({ graphQLErrors: parsed.errors ?? [] });
      reject(new ConsoleError(f.message, f.code));
    };
    xhr.send(body);
  });
}
