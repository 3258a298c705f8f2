import type Stripe from 'stripe';
import { DomainError } from '../../platform/errors.ts';

/** Stripe takes identity documents up to 10 MB; so do we (decoded size). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** The JSON body that carries the largest document in base64, with room for the other fields. */
export const MAX_DOCUMENT_BODY_BYTES = Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + 16 * 1024;

type DocumentType = { mime: 'application/pdf' | 'image/jpeg' | 'image/png'; extension: string };

/** The type a document's bytes say it is (its first bytes), whatever the client claims. */
export function sniffDocument(bytes: Buffer): DocumentType | undefined {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-')
    return { mime: 'application/pdf', extension: 'pdf' };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { mime: 'image/jpeg', extension: 'jpg' };
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { mime: 'image/png', extension: 'png' };
  }
  return undefined;
}

export class DocumentTooLarge extends Error {}

/**
 * Decodes, checks and uploads a document to Stripe (a File with the purpose Stripe's verification expects).
 * Not base64 → 400; over 10 MB → 413 (DocumentTooLarge); neither PDF, JPEG nor PNG by content → 415.
 */
export async function uploadDocument(
  stripe: Stripe,
  input: { contentBase64: string; purpose: 'identity_document' | 'account_requirement'; accountId?: string },
): Promise<{ fileId: string; type: string; bytes: number }> {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(input.contentBase64.replace(/\s/g, ''))) {
    throw new DomainError('invalid', 'invalid_document_encoding', 'contentBase64 is not base64.');
  }
  const bytes = Buffer.from(input.contentBase64, 'base64');
  if (bytes.length > MAX_DOCUMENT_BYTES) throw new DocumentTooLarge();
  const type = sniffDocument(bytes);
  if (!type) {
    throw new DomainError(
      'unsupported',
      'unsupported_document_type',
      'The document must be a PDF, JPEG or PNG (judged by its content, not its name).',
    );
  }
  const file = await stripe.files.create(
    {
      purpose: input.purpose,
      file: { data: bytes, name: `document.${type.extension}`, type: type.mime },
    },
    input.accountId ? { stripeAccount: input.accountId } : {},
  );
  return { fileId: file.id, type: type.mime, bytes: bytes.length };
}
