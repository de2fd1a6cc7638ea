#!/usr/bin/env bash
# Try the API against `npm start`: every example of the README's "Try it" and of docs/api-guide.md, in one file.
#
#   npm start              # first terminal: builds the demo snapshots, serves http://127.0.0.1:8787/api/v1
#   bash docs/try-it.sh    # second terminal, from the repository root (or paste the lines below into a shell)
#
# `npm start` prints four demo keys (one per plan) and keeps them in .local/demo-keys.json, which the first lines
# read. The guides show parts of this file: a part runs from a "#>> name" line to the next "#<<" line, and
# `npm run docs:examples` copies the parts a guide names into it (`npm test` fails when a copy differs). The test
# suites send every curl line below to the API, the deployment rehearsal's included: an example that stops working
# fails them.
set -u
[ -f .local/demo-keys.json ] || { echo "no .local/demo-keys.json: start npm start, then run this from the repository root" >&2; exit 1; }
# Run as a script: show each command before its answer, and end each answer with a line break.
curl() { printf '\n$ curl %s\n' "$*" >&2; command curl "$@"; echo; }

#>> keys
export PF=http://127.0.0.1:8787/api/v1
export FREE=$(node -p "require('./.local/demo-keys.json').free")
export BUILDER=$(node -p "require('./.local/demo-keys.json').builder")
export DEV=$(node -p "require('./.local/demo-keys.json').developer")
export ENT=$(node -p "require('./.local/demo-keys.json').enterprise")
#<<

#>> vertical
# Vertical list: verified glp1 providers in Texas (paid fields for a paid key)
curl -s -H "Authorization: Bearer $DEV" "$PF/providers?vertical=glp1&state=TX&limit=5"

# The same with a free key: paid fields come back as locked placeholders
curl -s -H "Authorization: Bearer $FREE" "$PF/providers?vertical=glp1&state=tx&limit=5"
#<<

#>> filters
# Filters: city (case-insensitive), business_mode, paging
curl -s -H "x-api-key: $DEV" "$PF/providers?vertical=glp1&state=CA&city=los%20angeles&business_mode=both"
curl -s -H "x-api-key: $DEV" "$PF/providers?vertical=glp1&limit=10&offset=10"
#<<

#>> identity
# Identity list by a NUCC code, and by a classification name (case-insensitive)
curl -s -H "Authorization: Bearer $FREE" "$PF/providers?taxonomy=101Y00000X&limit=5"
curl -s -H "Authorization: Bearer $FREE" "$PF/providers?taxonomy=counselor&state=TX&limit=5"
#<<

#>> search
# Identity search: a name prefix (organisation name or last name) in a state, a ZIP code, a roster of NPIs
curl -s -H "Authorization: Bearer $FREE" "$PF/providers?name=smi&state=TX"                 # PEYTON SMITH, PT, DPT (Coppell)
curl -s -H "Authorization: Bearer $FREE" "$PF/providers?postal_code=77030&state=TX&entity_type=individual"
curl -s -H "Authorization: Bearer $DEV" "$PF/providers?npi=1003633876,1508798976&format=csv"
curl -s -H "Authorization: Bearer $FREE" "$PF/providers?name=smith"                        # 400: add state (with a hint)
#<<

#>> near
# Radius search: counselors within 25 miles of a ZIP's centroid (nearest first, each row with distance_miles), names
# starting "sm" within 100 miles of a point (CSV: distance_miles is the last column), glp1 providers with a clinic
# within 50 miles of Dallas, and a ZIP without a centroid (400, with a hint)
curl -s -H "Authorization: Bearer $FREE" "$PF/providers?taxonomy=Counselor&near=12901&radius_miles=25&limit=5"
curl -s -H "Authorization: Bearer $DEV" "$PF/providers?name=sm&near=32.7767,-96.7970&radius_miles=100&format=csv"
curl -s -H "Authorization: Bearer $ENT" "$PF/providers?vertical=glp1&near=32.7767,-96.7970&radius_miles=50&business_mode=physical&limit=5"
curl -s -H "Authorization: Bearer $FREE" "$PF/providers?taxonomy=Counselor&near=99999"      # 400 unknown_zip
#<<

#>> detail
# Detail by slug or entity_id (take one from a list)
SLUG=$(curl -s -H "Authorization: Bearer $ENT" "$PF/providers?vertical=glp1&limit=1" | node -p "JSON.parse(require('fs').readFileSync(0,'utf8')).data[0].slug")
curl -s -H "Authorization: Bearer $BUILDER" "$PF/providers/$SLUG"
#<<

#>> tracked
# The tracked set (free key, JSON only)
curl -s -H "Authorization: Bearer $FREE" "$PF/providers?vertical=glp1&include=tracked&limit=5"
#<<

#>> csv
# CSV: a page of 1,000 rows saved as providers-glp1-0.csv
curl -s -OJ -H "Authorization: Bearer $DEV" "$PF/providers?vertical=glp1&format=csv&limit=1000"
#<<

#>> npi
# NPI lookups (real NPIs of test/fixtures/source-data/nppes_sample.csv)
curl -s -H "Authorization: Bearer $FREE" "$PF/npi/1003633876"          # 200: KYLEE FAWCETT, taxonomy 390200000X
curl -s -H "Authorization: Bearer $FREE" "$PF/npi/1508798976"          # 200: GABRIEL REA ORTEGA, Bakersfield CA
curl -s -i -H "Authorization: Bearer $DEV" "$PF/npi/1114636115"        # 410: deactivated 2026-06-15
curl -s -H "Authorization: Bearer $FREE" "$PF/npi/1234567893"          # 404 not_found (valid, never in the sample)
curl -s -H "Authorization: Bearer $FREE" "$PF/npi/1234567890"          # 400 invalid_npi (check digit)
curl -s -H "Authorization: Bearer $DEV" "$PF/npi?numbers=1003633876,1114636115,1234567893,12345"  # batch: 4 entries
#<<

#>> candidates
# A possible match (tools/demo/oig: every name there is fictional): an LEIE exclusion without an NPI names this
# provider. `oig` stays the NPI screen's "no match"; `oig_candidates` lists the candidate, its strength and evidence
curl -s -H "Authorization: Bearer $FREE" "$PF/npi/1999999919"
#<<

#>> receipts
# A signed receipt of a batch screen, JSON then CSV (one signed line per NPI and candidate), and the public key
curl -s -H "Authorization: Bearer $DEV" "$PF/npi?numbers=1999999919,1003633876,1234567893&receipt=true" > receipt.json
curl -s -H "Authorization: Bearer $DEV" "$PF/npi?numbers=1999999919,1003633876&receipt=true&format=csv" > receipt.csv
curl -s "$PF/receipts/public-key" > public-key.json
#<<

#>> changes
# Change feed: what changed since the demo's first snapshot (the demo publishes two snapshots)
SINCE=$(curl -s -H "Authorization: Bearer $ENT" "$PF/changes?since=2100-01-01" | node -p "JSON.parse(require('fs').readFileSync(0,'utf8')).span.oldest_snapshot")
curl -s -H "Authorization: Bearer $DEV" "$PF/changes?since=$SINCE"                      # every change, with its step
curl -s -H "Authorization: Bearer $DEV" "$PF/changes?since=$SINCE&kind=oig_excluded,oig_removed"
curl -s -H "Authorization: Bearer $DEV" "$PF/changes?since=$SINCE&kind=oig_removed,oig_candidate_added"  # a reinstatement, a candidate
curl -s -H "Authorization: Bearer $FREE" "$PF/changes?since=$SINCE&kind=signal_changed"  # values locked for a free key
curl -s -OJ -H "Authorization: Bearer $DEV" "$PF/changes?since=$SINCE&format=csv"
curl -s -H "Authorization: Bearer $DEV" "$PF/changes?since=2000-01-01"                  # 400 since_too_old, names the oldest
#<<

#>> roster
# A monthly re-screen of a roster. Once: screen it, and keep the snapshot id of the answer
LAST=$(curl -s -H "Authorization: Bearer $DEV" "$PF/npi?numbers=1003633876,1114636115,1508798976" | node -p "JSON.parse(require('fs').readFileSync(0,'utf8')).snapshot_id")
# Every month: what changed for the roster since then (keep that answer's span.to_snapshot as LAST for next month)
curl -s -H "Authorization: Bearer $DEV" "$PF/changes?since=$LAST&npi=1003633876,1114636115,1508798976"
#<<

#>> public
# Public: coverage, the sample (JSON and CSV), the OpenAPI document
curl -s "$PF/coverage"
curl -s "$PF/sample"
curl -s "$PF/sample?format=csv"
curl -s "$PF/openapi.json"
#<<

#>> errors
# Errors
curl -s "$PF/providers?vertical=glp1"                                   # 401 key_required
curl -s -H "Authorization: Bearer $BUILDER" "$PF/providers?vertical=dental"   # 403 vertical_not_permitted
curl -s -H "Authorization: Bearer $DEV" "$PF/providers?vertical=glp1&offset=100000"  # 400 invalid_offset
curl -s -i -H "Authorization: Bearer $DEV" "$PF/providers?vertical=glp1&limit=1" | grep -i '^x-ratelimit'
curl -s -H "Authorization: Bearer $DEV" "$PF/providers?vertical=glp1&limt=5"  # 400 invalid_parameter, "Did you mean `limit`?"
#<<

#>> versions
# Data versions: the snapshot and its as-of time, an ETag, and 304 for a tag you already hold (not counted)
curl -s -i -H "Authorization: Bearer $ENT" "$PF/providers?vertical=glp1&limit=1" | grep -iE '^(etag|x-snapshot-id|x-data-as-of)'
ETAG=$(curl -s -i -H "Authorization: Bearer $ENT" "$PF/providers?vertical=glp1&limit=1" | awk 'tolower($1)=="etag:" {print $2}' | tr -d '\r')
curl -i -H "Authorization: Bearer $ENT" -H "If-None-Match: $ETAG" "$PF/providers?vertical=glp1&limit=1"  # 304, no body
#<<
