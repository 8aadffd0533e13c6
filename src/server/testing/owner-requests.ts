// An owner's requests in a test, without writing out the bearer header each time:
//   const as = ownerRequests(() => t);
//   const res = await as(owner).post(`/api/text/${form._id}`, question);
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Payload = InjectOptions['payload'];
type Headers = Record<string, string>;

/** Who sends: an owner signed in (anything with a session token), or the token itself. */
export type Bearer = { token: string } | string;

export type OwnerRequests = {
  get(url: string, headers?: Headers): Promise<LightMyRequestResponse>;
  delete(url: string, headers?: Headers): Promise<LightMyRequestResponse>;
  post(url: string, payload?: Payload, headers?: Headers): Promise<LightMyRequestResponse>;
  put(url: string, payload?: Payload, headers?: Headers): Promise<LightMyRequestResponse>;
  patch(url: string, payload?: Payload, headers?: Headers): Promise<LightMyRequestResponse>;
  /** Any method, for a test that goes through several. */
  send(method: Method, url: string, payload?: Payload, headers?: Headers): Promise<LightMyRequestResponse>;
};

/** The header an owner's page sends with each request. */
export const bearer = (who: Bearer): Headers => ({
  authorization: `Bearer ${typeof who === 'string' ? who : who.token}`,
});

/**
 * `as(owner)`: the requests that owner makes to the test app. The app is read at each request, so a file may make
 * this before its `beforeAll` has started the app (pass `() => t` for a `let t`, or the object setUpTestApp returns).
 */
export function ownerRequests(
  test: { readonly app: FastifyInstance } | (() => { readonly app: FastifyInstance }),
): (who: Bearer) => OwnerRequests {
  const app = () => (typeof test === 'function' ? test() : test).app;
  return (who) => {
    const send = (method: Method, url: string, payload?: Payload, headers: Headers = {}) =>
      app().inject({
        method,
        url,
        headers: { ...bearer(who), ...headers },
        ...(payload === undefined ? {} : { payload }),
      });
    return {
      get: (url, headers) => send('GET', url, undefined, headers),
      delete: (url, headers) => send('DELETE', url, undefined, headers),
      post: (url, payload, headers) => send('POST', url, payload, headers),
      put: (url, payload, headers) => send('PUT', url, payload, headers),
      patch: (url, payload, headers) => send('PATCH', url, payload, headers),
      send,
    };
  };
}
