/**
 * The `{ error: { code, message } }` of a failed call, checked with the shared schema. The schema (and zod with it)
 * loads only when an error arrives, so the customer's page starts without zod (docs/decisions/012-customer-entry.md).
 */
export async function parseErrorBody(body: unknown): Promise<{ code: string; message: string } | null> {
  const { ErrorBodySchema } = await import('#common/errors.ts');
  const parsed = ErrorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.error : null;
}
