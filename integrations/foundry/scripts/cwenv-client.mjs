// The bridge's HTTP layer: talks to `cwenv serve` (docs/service.md). No Foundry API here,
// so the same file runs under node (tools/record.mjs) and its contract is tested against
// the real service (tests/test_foundry_bridge.py).
//
// Requests are built by pure functions (`build.*`) into plain objects
// {method, path, query, body}; `CwenvClient.send` alone touches the network. That split is
// what lets the test compare the requests this module makes with the recorded ones.

/** The fields of each answer the bridge reads ("a.b": a key, "a[]": every element). */
export const READS = Object.freeze({
  about: ["service", "version", "agents"],
  state: [
    "id",
    "step",
    "outcome",
    "decision.kind",
    "decision.fighter",
    "decision.name",
    "decision.side",
    "fighters[].name",
    "fighters[].side",
    "fighters[].cell",
    "fighters[].lp",
    "fighters[].lp_max",
  ],
  advice: [
    "step",
    "fighter",
    "score_kind",
    "recommended.id",
    "recommended.label",
    "recommended.score",
    "recommended.reason",
    "alternatives[].id",
    "alternatives[].label",
    "alternatives[].score",
  ],
  result: [
    "events[].text",
    "needs_die",
    "state.step",
    "state.decision",
    "state.outcome",
    "state.fighters[].name",
    "state.fighters[].cell",
    "state.fighters[].lp",
  ],
});

const enc = encodeURIComponent;

/** Pure request builders: what to send, never sending it. */
export const build = Object.freeze({
  about() {
    return { method: "GET", path: "/v1", query: {}, body: null, reads: "about" };
  },
  createFight({ scenario, seed = 0, rules = null }) {
    const body = { scenario, seed };
    if (rules) body.rules = rules;
    return { method: "POST", path: "/v1/fights", query: {}, body, reads: "state" };
  },
  fightState(fightId, { legal = false } = {}) {
    const query = legal ? {} : { legal: "false" };
    return { method: "GET", path: `/v1/fights/${enc(fightId)}`, query, body: null, reads: "state" };
  },
  advice(fightId, { agent = "taktiker", top = 3 } = {}) {
    return {
      method: "GET",
      path: `/v1/fights/${enc(fightId)}/advice`,
      query: { agent, top: String(top) },
      body: null,
      reads: "advice",
    };
  },
  applyAction(fightId, { actionId, expectStep }) {
    return {
      method: "POST",
      path: `/v1/fights/${enc(fightId)}/actions`,
      query: {},
      body: { action_id: actionId, expect_step: expectStep },
      reads: "result",
    };
  },
  undo(fightId, { expectStep }) {
    return {
      method: "POST",
      path: `/v1/fights/${enc(fightId)}/undo`,
      query: {},
      body: { expect_step: expectStep },
      reads: "state",
    };
  },
});

/** The URL and fetch() options of a built request. */
export function toFetch(baseUrl, request, token = null) {
  const url = new URL(baseUrl.replace(/\/+$/, "") + request.path);
  for (const [k, v] of Object.entries(request.query)) url.searchParams.set(k, v);
  const headers = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const init = { method: request.method, headers };
  if (request.body !== null) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(request.body);
  }
  return { url: url.toString(), init };
}

/** An error answer of the service: its status and its JSON (error, message, issues). */
export class CwenvError extends Error {
  constructor(status, json) {
    super(json?.message ?? `cwenv serve answered ${status}`);
    this.status = status;
    this.json = json;
  }
}

export class CwenvClient {
  /** @param {string} baseUrl e.g. http://127.0.0.1:8765 @param {{token?: string, fetch?: Function, onExchange?: Function}} opts */
  constructor(baseUrl, { token = null, fetch: fetchImpl = globalThis.fetch, onExchange = null } = {}) {
    this.baseUrl = baseUrl;
    this.token = token;
    this.fetch = fetchImpl;
    this.onExchange = onExchange;
  }

  /** Sends a built request; the answer's JSON, or throws CwenvError for a 4xx/5xx. */
  async send(request) {
    const { url, init } = toFetch(this.baseUrl, request, this.token);
    const response = await this.fetch(url, init);
    const text = await response.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = { error: "not_json", message: `cwenv serve answered ${response.status}: ${text.slice(0, 200)}` };
    }
    if (this.onExchange) this.onExchange(request, response.status, json);
    if (!response.ok) throw new CwenvError(response.status, json);
    return json;
  }
}
