// The /v1 API of cwenv serve. A token (cwenv serve --token) is read from the page's
// address (#token=SECRET), never stored.
const token = new URLSearchParams(location.hash.slice(1)).get("token");

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export async function call(method, path, body) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(`/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  const data = text ? JSON.parse(text) : null;
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

export const get = (path) => call("GET", path);
export const post = (path, body) => call("POST", path, body ?? {});
