import { DomainError, ErrorCode } from '../../../errors/catalogue.js';

export const SUPPORTED_EXTENSIONS = ['.txt', '.md', '.html', '.pdf', '.docx'] as const;

/**
 * The file is of a kind ingestion does not read (image, archive, spreadsheet, unknown binary).
 * The message is user-facing: it ends up in `source.failed.error` or an upload's 415.
 */
export class UnsupportedDocumentError extends DomainError {
  constructor(message: string) {
    super(415, message, ErrorCode.unsupportedDocument);
    this.name = 'UnsupportedDocumentError';
  }

  static forType(type: string): UnsupportedDocumentError {
    return new UnsupportedDocumentError(`Unsupported file type: ${type} (supported: ${SUPPORTED_EXTENSIONS.join(', ')})`);
  }
}

/** The file claims a supported format but cannot be read as one (empty, corrupt, encrypted, no text). */
export class DocumentParseError extends DomainError {
  constructor(message: string) {
    super(422, message, ErrorCode.documentUnreadable);
    this.name = 'DocumentParseError';
  }
}
