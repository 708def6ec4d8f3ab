// What the document fixtures look like in each provider's answer, shared by the review and
// document-authentication routes.
import { documentOf, type DocumentFixture } from '../fixtures.ts';
import { textOfDocument } from './imageInput.ts';
import { recordOf } from './refuse.ts';

export function documentFixture(images: unknown): DocumentFixture | undefined {
  return documentOf(textOfDocument(recordOf(images)));
}

/** Holder fields in the neutral shape of the review providers. */
export function holderOf(doc: DocumentFixture): Record<string, string> {
  const { person, documentId, doe, doi, state } = doc.licence;
  return {
    firstName: person.firstName,
    lastName: person.lastName,
    dob: person.dob,
    documentNumber: documentId,
    expiry: doe,
    issueDate: doi,
    issuer: state,
  };
}

/** Reasons a document fails: tampering or expiry. */
export function failures(doc: DocumentFixture): string[] {
  return [
    ...(doc.genuine ? [] : ['tampering_detected']),
    ...(doc.expired ? ['document_expired'] : []),
  ];
}

/** The document types every document provider takes. */
export const isDocumentType = (value: unknown): boolean =>
  value === 'dl' || value === 'ppt' || value === 'idcard';

export const hasDocumentImage = (images: unknown): boolean =>
  Object.keys(recordOf(images)).some((k) => k.startsWith('front_image'));
