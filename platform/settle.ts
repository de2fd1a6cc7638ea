/**
 * Like `Promise.all`, but waits for every promise to settle before throwing the first failure: work left running
 * after a failure would still be using what the failed caller then closes or deletes (a DuckDB connection, a work
 * folder).
 *
 * @example
 * const [files, search] = await allOrFirstError([writeFiles(), writeSearch()]);
 */
export async function allOrFirstError<T extends readonly unknown[]>(
  work: readonly [...{ [K in keyof T]: Promise<T[K]> }],
): Promise<T> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
