// cwenv bridge for Foundry VTT (docs/foundry.md). On the GM's client only: when the combat
// turn passes to an NSC token, ask `cwenv serve` what the NSC would do, show the proposal
// (with the alternatives and the reason) in a Dialog, and apply what the GM confirms; the
// tokens are then moved to the cells the service reports and the narration goes to chat.
//
// All HTTP goes through cwenv-client.mjs, whose requests are tested against the real
// service; this file holds only the Foundry side (hooks, settings, flags, Dialog, tokens).

import { build, CwenvClient, CwenvError } from "./cwenv-client.mjs";

const ID = "cwenv-bridge";
const MAX_STEPS = 12; // decisions in one NSC turn before the bridge stops asking

function setting(key) {
  return game.settings.get(ID, key);
}

function client() {
  return new CwenvClient(setting("serviceUrl"), { token: setting("token") || null });
}

/** The cwenv fighter a token stands for: its flag, else the token's name. */
function fighterOf(tokenDoc) {
  return tokenDoc?.getFlag(ID, "fighter") || tokenDoc?.name || null;
}

/** Only one client acts: the active GM (several GMs may be logged in). */
function isActingGM() {
  const active = game.users.activeGM ?? game.users.find((u) => u.isGM && u.active);
  return game.user.isGM && active?.id === game.user.id;
}

/** The fight of this combat: its stored id, or a new one made from the settings. */
async function fightOf(api, combat) {
  const known = combat.getFlag(ID, "fightId");
  if (known) {
    try {
      return await api.send(build.fightState(known));
    } catch (err) {
      if (!(err instanceof CwenvError && err.status === 404)) throw err;
    }
  }
  const scenario = combat.scene?.getFlag(ID, "scenario") || setting("scenario");
  const state = await api.send(build.createFight({ scenario, seed: setting("seed") }));
  await combat.setFlag(ID, "fightId", state.id);
  return state;
}

function escape(text) {
  const div = document.createElement("div");
  div.textContent = text ?? "";
  return div.innerHTML;
}

/** Asks the GM: the recommended option, an alternative, or nothing. Resolves to an
 * option or null. */
function confirm(advice) {
  const options = [advice.recommended, ...advice.alternatives].filter((o) => o.id !== null);
  const rows = options
    .map(
      (o, i) =>
        `<label style="display:block"><input type="radio" name="cwenv-choice" value="${i}" ${
          i === 0 ? "checked" : ""
        }> <b>${escape(o.label)}</b> (${escape(advice.score_kind)}: ${o.score ?? "–"})` +
        `${o.reason ? `<br><small>${escape(o.reason)}</small>` : ""}</label>`,
    )
    .join("");
  return new Promise((resolve) => {
    new Dialog({
      title: `cwenv: ${advice.fighter}`,
      content: `<p>Vorschlag für ${escape(advice.fighter)}:</p>${rows}`,
      buttons: {
        apply: {
          label: "Ausführen",
          callback: (html) => {
            const root = html[0] ?? html;
            const picked = root.querySelector("input[name=cwenv-choice]:checked");
            resolve(options[Number(picked?.value ?? 0)]);
          },
        },
        cancel: { label: "Selbst entscheiden", callback: () => resolve(null) },
      },
      default: "apply",
      close: () => resolve(null),
    }).render(true);
  });
}

/** Moves each mapped token to its fighter's cell (scene flag `origin`: the grid square
 * of the map's cell 0,0) and writes LP where the setting names the actor's field. */
async function syncTokens(state) {
  const scene = canvas.scene;
  const size = scene.grid.size ?? scene.grid;
  const origin = scene.getFlag(ID, "origin") ?? { x: 0, y: 0 };
  const lpPath = setting("lpPath");
  for (const fighter of state.fighters) {
    const token = scene.tokens.find((t) => fighterOf(t) === fighter.name);
    if (!token) continue;
    if (fighter.cell) {
      const x = (origin.x + fighter.cell.x) * size;
      const y = (origin.y + fighter.cell.y) * size;
      if (token.x !== x || token.y !== y) await token.update({ x, y });
    }
    if (lpPath && token.actor) await token.actor.update({ [lpPath]: fighter.lp });
  }
}

async function narrate(events) {
  const lines = events.map((e) => e.text).filter(Boolean);
  if (!lines.length) return;
  await ChatMessage.create({
    content: lines.map(escape).join("<br>"),
    whisper: ChatMessage.getWhisperRecipients("GM"),
  });
}

/** The NSC's turn: advise, confirm, apply, until the decision is no longer this NSC's. */
async function playTurn(combat, name) {
  const api = client();
  const agent = setting("agent");
  let state = await fightOf(api, combat);
  for (let n = 0; n < MAX_STEPS && state.decision && !state.outcome; n++) {
    const decision = state.decision;
    if (decision.side === "RUNNER") {
      ui.notifications.info(`cwenv: ${decision.name} entscheidet (${decision.kind}); weiter in /ui/`);
      return;
    }
    if (decision.kind === "TURN" && decision.name !== name) return; // the next fighter's turn
    const advice = await api.send(build.advice(state.id, { agent, top: 3 }));
    const chosen = await confirm(advice);
    if (!chosen) return;
    try {
      const fightId = state.id;
      const result = await api.send(build.applyAction(fightId, { actionId: chosen.id, expectStep: advice.step }));
      await narrate(result.events);
      state = result.state;
      await syncTokens(state);
      if (result.needs_die) {
        ui.notifications.warn(`cwenv: der Schritt wartet auf einen W10 (${result.needs_die})`);
        return;
      }
    } catch (err) {
      if (!(err instanceof CwenvError && err.status === 409)) throw err;
      state = await api.send(build.fightState(state.id)); // someone else acted: ask again
    }
  }
}

Hooks.once("init", () => {
  const world = (key, name, type, fallback, hint) =>
    game.settings.register(ID, key, { name, hint, scope: "world", config: true, type, default: fallback });
  world("serviceUrl", "cwenv serve URL", String, "http://127.0.0.1:8765", "Where `cwenv serve` listens.");
  world("agent", "Agent", String, "taktiker", "The agent asked (GET /v1/agents lists them).");
  world("scenario", "Szenario", String, "feuergefecht", "The shipped scenario of a new fight.");
  world("seed", "Seed", Number, 0, "Seeds the service's dice and agents.");
  world("lpPath", "LP field", String, "", "The actor field LP are written to (blank: none).");
  game.settings.register(ID, "token", {
    name: "Token",
    hint: "cwenv serve --token (only when it is not on loopback).",
    scope: "client",
    config: true,
    type: String,
    default: "",
  });
});

Hooks.on("combatTurnChange", (combat, _prior, current) => {
  if (!isActingGM()) return;
  const combatant = combat.combatants.get(current.combatantId);
  if (!combatant || combatant.actor?.hasPlayerOwner) return; // a Runner: the player acts
  const name = fighterOf(combatant.token);
  playTurn(combat, name).catch((err) => {
    console.error("cwenv-bridge", err);
    ui.notifications.error(`cwenv: ${err.message}`);
  });
});
