import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * POSTs `body` and resolves with the status code, without reading the answer's body. node:http rather than fetch:
 * its `lookup` option lets the connection use the addresses we checked (docs/decisions/023-webhooks.md). It follows no
 * redirect; `timeoutMs` bounds the whole exchange up to the status line, and `signal` (a shutdown) can end it sooner.
 */
export function postJson(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; lookup: LookupFunction | undefined; signal?: AbortSignal | undefined },
): Promise<number> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: options.signal
          ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal])
          : AbortSignal.timeout(options.timeoutMs),
        ...(options.lookup ? { lookup: options.lookup } : {}),
      },
      (res) => {
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
