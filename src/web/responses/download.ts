/** Downloads an owner-only file (CSV): fetched with the token, then saved under `filename`. */
export async function downloadWithToken(url: string, token: string, filename: string): Promise<void> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`Download failed (${response.status})`);
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(href);
}
