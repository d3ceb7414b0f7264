// Records (or rebuilds) the exchanges the bridge makes in one NSC turn, for
// tests/test_foundry_bridge.py. Foundry itself cannot run in CI, so the contract is the
// requests made by scripts/cwenv-client.mjs and the fields it reads from the answers.
//
//   cwenv serve --no-db --port 8799 &
//   node integrations/foundry/tools/record.mjs http://127.0.0.1:8799 tests/fixtures/foundry/turn.json
//   node integrations/foundry/tools/record.mjs --from tests/fixtures/foundry/turn.json
//
// The first form talks to the service and writes the fixture (the fight's id replaced by
// "FIGHT"); the second prints, as JSON, the requests the builders make when fed the
// fixture's recorded answers, which the test compares with the recorded requests.

import { readFileSync, writeFileSync } from "node:fs";
import { build, CwenvClient, READS } from "../scripts/cwenv-client.mjs";

export const FIGHT = "FIGHT"; // stands for the fight id (kept by encodeURIComponent)

/** One NSC turn as the module plays it: sync, advise, the GM accepts the proposal, asks
 * again, picks an alternative instead, then takes it back. Each step builds its request
 * from the answers so far (`r`). */
export const SCRIPT = [
  ["about", () => build.about()],
  ["create", () => build.createFight({ scenario: "feuergefecht", seed: 7 })],
  ["sync", (r) => build.fightState(r.create.id)],
  ["advice", (r) => build.advice(r.create.id, { agent: "taktiker", top: 3 })],
  [
    "accept",
    (r) => build.applyAction(r.create.id, { actionId: r.advice.recommended.id, expectStep: r.advice.step }),
  ],
  ["advice_next", (r) => build.advice(r.create.id, { agent: "taktiker", top: 3 })],
  [
    "pick_other",
    (r) => {
      const other = r.advice_next.alternatives[0] ?? r.advice_next.recommended;
      return build.applyAction(r.create.id, { actionId: other.id, expectStep: r.advice_next.step });
    },
  ],
  ["undo", (r) => build.undo(r.create.id, { expectStep: r.pick_other.state.step })],
];

/** Only the parts of an answer that `paths` (READS' syntax) name: the fixture keeps what
 * the bridge reads, not the whole state. */
export function pick(value, paths) {
  const groups = new Map(); // key -> {many, rest: [sub-paths]}
  for (const path of paths) {
    const [head, ...rest] = path.split(".");
    const many = head.endsWith("[]");
    const key = many ? head.slice(0, -2) : head;
    const group = groups.get(key) ?? { many, rest: [] };
    if (rest.length) group.rest.push(rest.join("."));
    groups.set(key, group);
  }
  const out = {};
  for (const [key, { many, rest }] of groups) {
    if (value === null || typeof value !== "object" || !(key in value)) continue;
    const inner = value[key];
    if (!rest.length || inner === null) out[key] = inner;
    else out[key] = many ? inner.map((item) => (item === null ? null : pick(item, rest))) : pick(inner, rest);
  }
  return out;
}

function scrub(value, id) {
  return JSON.parse(JSON.stringify(value).split(id).join(FIGHT));
}

async function record(baseUrl, out) {
  const exchanges = [];
  const client = new CwenvClient(baseUrl, {
    onExchange: (request, status, response) => exchanges.push({ request, status, response }),
  });
  const answers = {};
  for (const [name, make] of SCRIPT) {
    answers[name] = await client.send(make(answers));
    exchanges.at(-1).name = name;
  }
  const named = exchanges.map(({ name, request, status, response }) => ({
    name,
    request,
    status,
    response: pick(response, READS[request.reads]),
  }));
  const fixture = { reads: READS, exchanges: scrub(named, answers.create.id) };
  writeFileSync(out, JSON.stringify(fixture, null, 1) + "\n");
}

function rebuild(path) {
  const fixture = JSON.parse(readFileSync(path, "utf-8"));
  const answers = Object.fromEntries(fixture.exchanges.map((e) => [e.name, e.response]));
  const requests = SCRIPT.map(([name, make]) => ({ name, request: make(answers) }));
  process.stdout.write(JSON.stringify({ reads: READS, requests }) + "\n");
}

const [first, second] = process.argv.slice(2);
if (first === "--from") rebuild(second);
else if (first && second) await record(first, second);
else {
  console.error("usage: record.mjs BASE_URL OUT.json | record.mjs --from FIXTURE.json");
  process.exit(2);
}
