/**
 * The change basis's keyed candidates as builds before `oig_candidate.keyed` derived them, from an `oig_candidate`
 * row's `candidates` (needs the OIG name macros): the matcher's `keyed` must equal it byte for byte, so that the
 * bases earlier snapshots hold compare with the new ones without false changes.
 */
export const KEYED_OF_CANDIDATES = `to_json(list_transform(from_json(candidates, '["JSON"]'),
  c -> json_object('key', oig_candidate_key(c), 'candidate', c)))::VARCHAR`;
