/**
 * Named TypeScript types for the API's shapes, taken from the types that openapi-typescript generates from the
 * OpenAPI document, so the two cannot drift apart.
 */
import type { components } from './generated/api-types';

type Schemas = components['schemas'];

export type SourcedSignal = Schemas['SourcedSignal'];
export type LicenseSignal = Schemas['LicenseSignal'];
export type ProviderPrice = Schemas['ProviderPrice'];
export type LockedField = Schemas['LockedField'];
export type OigMatch = Schemas['OigMatch'];
export type OigNoMatch = Schemas['OigNoMatch'];
export type OigField = Schemas['OigField'];
export type OigCandidate = Schemas['OigCandidate'];
export type OigEvidence = Schemas['OigEvidence'];
export type OigCandidateLeie = Schemas['OigCandidateLeie'];
export type Provider = Schemas['Provider'];
export type IdentityProvider = Schemas['IdentityProvider'];
export type Pagination = Schemas['Pagination'];
export type Usage = Schemas['Usage'];
export type Filters = Schemas['Filters'];
export type ProviderListResponse = Schemas['ProviderListResponse'];
export type IdentityListResponse = Schemas['IdentityListResponse'];
export type ProviderDetailResponse = Schemas['ProviderDetailResponse'];
export type SampleResponse = Schemas['SampleResponse'];
export type SignalCounts = Schemas['SignalCounts'];
export type CoverageSlice = Schemas['CoverageSlice'];
export type CoverageStats = Schemas['CoverageStats'];
export type ErrorBody = Schemas['Error'];
export type NpiTaxonomy = Schemas['NpiTaxonomy'];
export type NpiRecord = Schemas['NpiRecord'];
export type NpiDeactivated = Schemas['NpiDeactivated'];
export type NpiResponse = Schemas['NpiResponse'];
export type NpiDeactivatedResponse = Schemas['NpiDeactivatedResponse'];
export type NpiBatchEntry = Schemas['NpiBatchEntry'];
export type NpiBatchResponse = Schemas['NpiBatchResponse'];
export type ChangeEntry = Schemas['ChangeEntry'];
export type ChangeSpanBody = Schemas['ChangeSpan'];
export type ChangeFilters = Schemas['ChangeFilters'];
export type ChangeListResponse = Schemas['ChangeListResponse'];
export type LeieReleaseBody = Schemas['LeieRelease'];
export type Receipt = Schemas['Receipt'];
export type ReceiptAnswer = Schemas['ReceiptAnswer'];
export type ReceiptSignature = Schemas['ReceiptSignature'];
export type ReceiptResponse = Schemas['ReceiptResponse'];
export type ReceiptPublicKey = Schemas['ReceiptPublicKey'];
