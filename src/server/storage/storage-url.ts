/** Where STORAGE_URL points: `s3://bucket/prefix?endpoint=…&region=…&forcePathStyle=true`. */
export type S3Location = {
  bucket: string;
  /** Every key starts with it ('' or ending in '/'), so one bucket can hold several instances or other data. */
  prefix: string;
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
};

/** Reads STORAGE_URL; a message naming what is wrong when it cannot be used. */
export function parseStorageUrl(text: string, defaultRegion = 'us-east-1'): S3Location | string {
  if (!URL.canParse(text)) return 'must be a URL such as s3://bucket/prefix?region=us-east-1';
  const url = new URL(text);
  if (url.protocol !== 's3:') return 'must start with s3:// (leave it unset to keep files on the local disk)';
  const bucket = url.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) return `"${bucket}" is not a valid bucket name`;
  const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  const known = new Set(['endpoint', 'region', 'forcePathStyle']);
  const unknown = [...url.searchParams.keys()].filter((k) => !known.has(k));
  if (unknown.length > 0) return `unknown option ${unknown.join(', ')} (known: ${[...known].join(', ')})`;
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !(URL.canParse(endpoint) && /^https?:$/.test(new URL(endpoint).protocol)))
    return 'endpoint must be an http:// or https:// URL';
  const forcePathStyle = url.searchParams.get('forcePathStyle') ?? 'false';
  if (forcePathStyle !== 'true' && forcePathStyle !== 'false') return 'forcePathStyle must be true or false';
  return {
    bucket,
    prefix: path === '' ? '' : `${path}/`,
    endpoint,
    region: url.searchParams.get('region') ?? defaultRegion,
    forcePathStyle: forcePathStyle === 'true',
  };
}
