// Fields a provider read from a document, mapped onto the normalised ExtractedFields.
import type { ExtractedFields } from '@idv/contracts';
import { isoDate } from './documentInputs.ts';
import { asRecord, asString, defined } from './normalise.ts';

/** From the neutral holder shape {firstName, lastName, dob, documentNumber, expiry, issueDate, issuer}. */
export function extractedFrom(value: unknown): ExtractedFields {
  const r = asRecord(value);
  return defined({
    firstName: asString(r.firstName),
    middleName: asString(r.middleName),
    lastName: asString(r.lastName),
    dob: isoDate(r.dob),
    documentNumber: asString(r.documentNumber),
    expiry: isoDate(r.expiry),
    issueDate: isoDate(r.issueDate),
    issuer: asString(r.issuer),
    country: asString(r.country),
    sex: asString(r.sex),
    address: asString(r.address),
  });
}

/** From DQL_* result fields of a scan service. */
export function extractedFromDql(value: unknown): ExtractedFields {
  const r = asRecord(value);
  return extractedFrom({
    firstName: r.DQL_Final_FirstName_Result ?? r.DQL_Final_GivenName_Result,
    middleName: r.DQL_Final_MiddleName_Result,
    lastName: r.DQL_Final_Surname_Result,
    dob: r.DQL_Final_BirthDate_Result,
    documentNumber: r.DQL_Final_DocumentNumber_Result,
    expiry: r.DQL_Final_ExpirationDate_Result,
    issueDate: r.DQL_Final_IssueDate_Result,
    issuer: r.DQL_Classification_IssuerName ?? r.DQL_Final_AddressState_Result,
    country: r.DQL_Classification_DocumentIssuerCountryCode,
    sex: r.DQL_Final_Sex_Result,
    address: r.DQL_Final_Address_Result,
  });
}
