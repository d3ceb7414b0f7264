// cwenv's browser view: Watch (stored or live agent games), Play (the Runners against
// agents) and GM mode (the NSC proposes, the GM confirms). All data comes from /v1.
import { get, post } from "./api.js";
import { dicePrompt, dieOfKey } from "./dice.js";
import { drawMap, legendHtml, linesOf } from "./map.js";
import { actionButton, decisionText, fightersTable, menu, narrate, orderList } from "./panels.js";

const $ = (id) => document.getElementById(id);
const RUNNER = "RUNNER";
const ui = {
  mode: "play", human: RUNNER, fight: null, board: null, overlay: {}, selected: null, log: [], humanSteps: [],
  frames: [], frame: 0, busy: false, advice: null,
};

function status(text) { $("status").textContent = text; }

async function guard(task) {
  if (ui.busy) return;
  ui.busy = true;
  document.body.dataset.busy = "true";
  try { await task(); } catch (e) { status(`Fehler: ${e.message}`); console.error(e); }
  finally { ui.busy = false; document.body.dataset.busy = "false"; }
}

function render() {
  const b = ui.board;
  const waiting = ui.mode !== "watch" && b ? b.waiting_for_die : null;
  dicePrompt($("dice"), waiting, sendDie);
  if (!b || !b.map) return;
  drawMap($("map"), b, ui.overlay, ui.selected);
  $("legend").innerHTML = legendHtml(b.map);
  $("round").textContent = `${b.scenario} · Runde ${b.round}`;
  fightersTable($("fighters"), b);
  orderList($("order"), b);
  $("decision").textContent = decisionText(b);
  const watching = ui.mode === "watch";
  const d = b.decision;
  const human = !watching && !waiting && d && !b.outcome && (ui.mode === "gm" ? d.side === ui.human || ui.override : d.side === ui.human);
  const prompt = human && d.kind !== "TURN";
  $("prompt").hidden = !prompt;
  if (prompt) {
    const p = $("prompt");
    p.replaceChildren();
    const h = document.createElement("h2");
    h.textContent = `${b.decision_label}: ${b.markers[d.fighter]} ${d.name}`;
    const about = document.createElement("p");
    about.className = "about";
    about.textContent = aboutText(b);
    p.append(h, about, ...b.legal_actions.map((a) => actionButton(a, pick)));
    p.querySelector("button")?.focus();
  }
  if (human && !prompt) menu($("menu"), b, pick); else $("menu").replaceChildren();
  if (ui.mode === "gm" && ui.override && !waiting && d && d.side !== ui.human) menu($("menu"), b, pick);
  narrate($("narration"), ui.log.map((l) => l.text), ui.log.findIndex((l) => l.current));
}

// what a prompt answers: the attack it belongs to, or where the damage comes from
function aboutText(b) {
  const about = b.decision.about || {};
  const attack = about.attack || (about.check && about.check.attack);
  const who = (i) => `${b.markers[i]} ${b.fighters[i].name}`;
  if (attack) return `Angriff: ${who(attack.attacker)} gegen ${who(attack.target)}`;
  if (about.source !== undefined && about.source >= 0) return `Schaden ${about.total} von ${who(about.source)}`;
  return "";
}

function addEvents(events, fresh = true) {
  for (const l of ui.log) l.current = false;
  for (const e of events) ui.log.push({ text: e.text, current: fresh });
  if (ui.log.length > 400) ui.log.splice(0, ui.log.length - 400);
}

async function load() {
  ui.board = await get(`/fights/${ui.fight}/board`);
  ui.selected = null;
}

async function act(body) {
  const r = await post(`/fights/${ui.fight}/actions`, { ...body, expect_step: ui.board.step });
  addEvents(r.events);
  await load();
  ui.overlay = { lines: linesOf(r.events) };
  return r;
}

// Play: the agent answers every NSC decision, until the Runners decide or the fight ends.
// GM mode: an NSC decision is shown as the agent's proposal.
async function advance() {
  for (let n = 0; n < 400; n++) {
    const b = ui.board, d = b.decision;
    if (b.waiting_for_die) { status(`Würfel vom Tisch: ${b.waiting_for_die.for}`); render(); return; }
    if (!d || b.outcome || d.side === ui.human) break;
    if (ui.mode === "gm") { await propose(); return; }
    status(`${d.name} (${$("agent").value}) denkt nach …`);
    render();
    const budget = budgetParam();
    await act(budget ? { agent: $("agent").value, budget } : { agent: $("agent").value });
  }
  $("proposal").hidden = true;
  status(ui.board.outcome ? "Kampf vorbei" : ui.human === RUNNER ? "Die Runner sind am Zug" : "Die NSCs sind am Zug");
  render();
}

async function propose() {
  const d = ui.board.decision;
  status(`${d.name}: Vorschlag von ${$("agent").value}`);
  const budget = budgetParam();
  const advice = await get(`/fights/${ui.fight}/advice?agent=${encodeURIComponent($("agent").value)}&top=4` +
    (budget ? `&budget=${budget}` : ""));
  ui.advice = advice;
  const rec = advice.recommended;
  ui.overlay = { ...ui.overlay, proposal: { action: rec.action, cell: cellOf(rec.action.cell) } };
  $("proposal").hidden = false;
  $("proposal-label").textContent = `${ui.board.markers[d.fighter]} ${d.name}: ${rec.label}`;
  $("proposal-reason").textContent = [rec.reason, scoreText(advice, rec)].filter(Boolean).join(" · ");
  const alts = $("alternatives");
  alts.replaceChildren();
  for (const o of advice.alternatives) {
    if (o.id === null) continue;
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.className = "alt";
    b.dataset.id = o.id;
    b.textContent = `${o.label}${o.reason ? ` — ${o.reason}` : ""} (${scoreText(advice, o)})`;
    b.addEventListener("click", () => pick(o.id));
    li.append(b);
    alts.append(li);
  }
  const li = document.createElement("li");
  const over = document.createElement("button");
  over.id = "override";
  over.textContent = "Übersteuern: eine andere legale Aktion";
  over.addEventListener("click", () => { ui.override = true; render(); });
  li.append(over);
  alts.append(li);
  render();
}

// the search budget for a search agent (MCTS iterations, lookahead rollouts); empty: its own
function budgetParam() {
  const v = Number($("budget").value);
  return Number.isInteger(v) && v > 0 ? v : null;
}

function scoreText(advice, o) {
  if (o.score === null || o.score === undefined) return "";
  return advice.score_kind === "probability" ? `${Math.round(o.score * 100)} %` : `${advice.score_kind} ${o.score.toFixed(2)}`;
}

// a W10 rolled at the table for the step that waits for it; the step goes on
function sendDie(value) {
  guard(async () => {
    const r = await post(`/fights/${ui.fight}/dice`, { dice: [value] });
    addEvents(r.events);
    await load();
    if (r.events.length) ui.overlay = { lines: linesOf(r.events) };
    await advance();
  });
}

function cellOf(index) {
  if (index < 0) return null;
  const w = ui.board.map.width;
  return { x: index % w, y: Math.floor(index / w) };
}

function pick(id) {
  guard(async () => {
    const d = ui.board.decision;
    if (d.side === ui.human) ui.humanSteps.push(ui.board.step);
    ui.override = false;
    $("proposal").hidden = true;
    await act({ action_id: id });
    await advance();
  });
}

async function focus(index) {
  if (ui.mode === "watch") { ui.selected = index; render(); return; }
  const f = await get(`/fights/${ui.fight}/fighters/${index}/focus`);
  ui.selected = index;
  ui.overlay = { reachable: f.reachable, sight: f.sight, targets: f.targets, proposal: ui.overlay.proposal };
  const seen = f.targets.filter((t) => t.in_sight).length;
  status(`${ui.board.markers[index]} ${ui.board.fighters[index].name}: ${f.reachable.length} Felder erreichbar, ` +
    `${f.sight.length} Felder in Sichtlinie, ${seen} Gegner sichtbar` + (f.own_turn ? "" : " (nicht am Zug)"));
  render();
}

async function start() {
  const body = { scenario: $("scenario").value, seed: Number($("seed").value) || 0,
    dice: ui.mode !== "watch" && $("table-dice").checked ? "table" : "seeded" };
  const r = await post("/fights", body);
  ui.fight = r.id;
  ui.human = ui.mode === "play" ? $("human-side").value : RUNNER;
  ui.log = [];
  ui.humanSteps = [];
  ui.overlay = {};
  history.replaceState(null, "", `?fight=${r.id}&mode=${ui.mode}&side=${ui.human}${location.hash}`);
  await load();
  if (ui.mode === "watch") { ui.frames = [frameOf(ui.board, [])]; ui.frame = 0; showFrame(); return; }
  await advance();
}

async function undo() {
  if (!ui.fight || ui.mode === "watch") return;
  // back to before the Runners' last decision (Play: the agents' answers go with it)
  const target = ui.mode === "play" ? ui.humanSteps.pop() ?? ui.board.step - 1 : ui.board.step - 1;
  if (ui.board.waiting_for_die && ui.board.waiting_for_die.action) { // the step that waits goes first
    await post(`/fights/${ui.fight}/undo`, { expect_step: ui.board.step });
    await load();
  }
  while (ui.board.step > Math.max(0, target)) {
    await post(`/fights/${ui.fight}/undo`, { expect_step: ui.board.step });
    await load();
  }
  ui.log.push({ text: "— zurückgenommen —", current: false });
  ui.overlay = {};
  $("proposal").hidden = true;
  status(`zurück bei Schritt ${ui.board.step}`);
  if (ui.mode === "gm") await advance(); else render();
}

async function save() {
  const data = await get(`/fights/${ui.fight}/save`);
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  a.download = `cwenv-${ui.fight}.json`;
  a.click();
}

// Watch: frames of a stored game, or of a live agent game played one step at a time.
function frameOf(state, events, taken) { return { state, events, lines: linesOf(events), taken }; }

function showFrame() {
  const f = ui.frames[ui.frame];
  ui.board = f.state;
  ui.overlay = { lines: f.lines };
  ui.log = [];
  ui.frames.slice(0, ui.frame + 1).forEach((fr, i) => {
    for (const e of fr.events) ui.log.push({ text: e.text, current: i === ui.frame });
  });
  $("step-label").textContent = `Schritt ${ui.frame} / ${ui.frames.length - 1}${ui.live ? "+" : ""}` +
    (f.taken ? ` · ${f.taken.label}` : "");
  render();
}

async function stepForward() {
  if (ui.frame < ui.frames.length - 1) { ui.frame++; showFrame(); return; }
  if (!ui.live || ui.board.outcome) return;
  const side = ui.board.decision.side;
  const agent = side === RUNNER ? $("runner-agent").value : $("agent").value;
  const r = await post(`/fights/${ui.fight}/actions`, { agent, expect_step: ui.board.step });
  await load();
  ui.frames.push(frameOf(ui.board, r.events, { label: r.events.length ? `${agent}` : agent }));
  ui.frame++;
  showFrame();
}

function stepBack() { if (ui.frame > 0) { ui.frame--; showFrame(); } }

async function listGames() {
  const list = $("games");
  list.replaceChildren();
  try {
    const found = await get("/games?limit=200");
    $("games-note").textContent = `${found.db}: ${found.games.length} von ${found.total} Spielen`;
    for (const g of found.games) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.className = "game";
      b.dataset.id = g.game_id;
      b.textContent = `${g.game_id.slice(0, 10)} · ${g.scenario} · ${g.runners} gegen ${g.nscs} · ${g.result}` +
        (g.rounds !== null ? ` (${g.rounds} Runden)` : "");
      b.disabled = g.result === "unplayed";
      b.addEventListener("click", () => guard(() => watchGame(g.game_id)));
      li.append(b);
      list.append(li);
    }
  } catch (e) {
    $("games-note").textContent = e.status === 409 ? "Keine Spieldatenbank: cwenv serve --games DB" : e.message;
  }
}

async function watchGame(id) {
  status("Spiel wird nachgespielt …");
  const r = await get(`/games/${encodeURIComponent(id)}/replay`);
  ui.live = false;
  ui.frames = r.frames.map((f) => ({ state: f.state, events: f.events, lines: f.lines, taken: f.taken }));
  ui.frame = 0;
  status(`${r.label}${r.matches === false ? " — weicht vom gespeicherten Ergebnis ab" : ""}`);
  showFrame();
}

// the agent plays the side the human does not (Play as the NSCs: the agent has the Runners)
function agentLabel() {
  const nscs = ui.mode !== "play" || $("human-side").value === RUNNER;
  $("nsc-agent-label").textContent = nscs ? "NSC-Agent" : "Runner-Agent";
}

function setMode(mode) {
  ui.mode = mode;
  if (mode === "gm") ui.human = RUNNER; // the GM enters the Runners' actions
  else if (mode === "play" && ui.fight) ui.human = $("human-side").value;
  for (const b of document.querySelectorAll("nav button")) b.setAttribute("aria-selected", String(b.dataset.mode === mode));
  const watch = mode === "watch";
  $("watch-controls").hidden = !watch;
  $("setup-games").hidden = !watch;
  $("runner-agent-box").hidden = !watch;
  $("table-dice-box").hidden = watch;
  $("human-side-box").hidden = mode !== "play";
  agentLabel();
  $("tools").hidden = watch;
  $("proposal").hidden = true;
  $("start").textContent = watch ? "Live-Kampf der Agenten" : "Kampf beginnen";
  if (watch) listGames();
  if (ui.fight && !watch) guard(async () => { await load(); await advance(); });
}

async function init() {
  const about = await get("");
  for (const [id, values, chosen] of [["scenario", about.scenarios, "feuergefecht"], ["agent", about.agents, "taktiker"],
    ["runner-agent", about.agents, "greedy"]]) {
    const s = $(id);
    for (const v of values) s.append(new Option(v, v, false, v === chosen));
  }
  document.querySelector("nav").addEventListener("click", (e) => { if (e.target.dataset.mode) setMode(e.target.dataset.mode); });
  $("start").addEventListener("click", () => guard(async () => { ui.live = ui.mode === "watch"; await start(); }));
  $("undo").addEventListener("click", () => guard(undo));
  $("save").addEventListener("click", () => guard(save));
  $("accept").addEventListener("click", () => { if (ui.advice) pick(ui.advice.recommended.id); });
  $("step-fwd").addEventListener("click", () => guard(stepForward));
  $("step-back").addEventListener("click", stepBack);
  const svg = $("map");
  const activate = (target) => {
    const cell = target.closest(".reach");
    if (cell) { pick(Number(cell.dataset.id)); return; }
    const f = target.closest(".fighter");
    if (f) guard(() => focus(Number(f.dataset.index)));
  };
  svg.addEventListener("click", (e) => activate(e.target));
  svg.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(e.target); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const die = $("dice").hidden ? null : dieOfKey(e.key);
    if (die !== null) { e.preventDefault(); sendDie(die); return; }
    if (ui.mode === "watch" && e.key === "ArrowRight") guard(stepForward);
    else if (ui.mode === "watch" && e.key === "ArrowLeft") stepBack();
    else if (e.key === "u" && ui.mode !== "watch") guard(undo);
  });
  $("human-side").addEventListener("change", agentLabel);
  const params = new URLSearchParams(location.search);
  if (params.get("side") === "GEGNER") { $("human-side").value = "GEGNER"; ui.human = "GEGNER"; }
  setMode(params.get("mode") || "play");
  if (params.get("fight")) {
    ui.fight = params.get("fight");
    await guard(async () => { await load(); if (ui.mode === "watch") { ui.frames = [frameOf(ui.board, [])]; ui.live = true; showFrame(); } else await advance(); });
  }
  document.body.dataset.ready = "true";
}

init().catch((e) => status(`Fehler: ${e.message}`));
