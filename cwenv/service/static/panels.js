// The side panels: fighters, initiative order, narration, the action menu.
const ORDER_SHOWN = 8; // turns still to come this round, as the terminal game shows them
const pct = (p) => `${Math.round(p * 100)} %`;
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

export function oddsText(entry) {
  if (entry.odds) return `Treffer ${pct(entry.odds.hit)} (Probe ${pct(entry.odds.success)}, Deckung ${entry.odds.cover})`;
  return entry.odds_text || "";
}

export function fightersTable(table, board) {
  const rows = board.fighters.map((f, i) => {
    const frac = Math.max(0, f.lp) / Math.max(1, f.lp_max);
    const state = f.dead ? "tot" : f.down ? "kampfunfähig" : f.fled ? "geflohen" : "";
    const conds = [state, ...f.condition_labels].filter(Boolean).join(", ");
    return `<tr data-index="${i}" data-side="${f.side}"><td><b>${esc(board.markers[i])}</b></td>
      <td>${esc(f.name)}</td>
      <td><span class="lp" role="meter" aria-valuemin="0" aria-valuemax="${f.lp_max}" aria-valuenow="${f.lp}"
        aria-label="LP"><span style="width:${(frac * 100).toFixed(0)}%"></span></span> ${f.lp}/${f.lp_max}</td>
      <td class="mumm">Mumm ${f.mumm}/${f.mumm_max}</td><td class="reactions">Reak. ${f.reactions}</td>
      <td class="conditions">${esc(conds)}</td></tr>`;
  });
  table.innerHTML = `<tr><th></th><th>Name</th><th>LP</th><th>Mumm</th><th>Reaktionen</th><th>Zustände</th></tr>${rows.join("")}`;
}

export function orderList(ol, board) {
  const items = [];
  const { now, next } = board.order || { now: null, next: [] };
  if (now !== null) items.push(`<li class="now">am Zug: ${esc(board.markers[now])} ${esc(board.fighters[now].name)}</li>`);
  for (const i of next.slice(0, ORDER_SHOWN)) items.push(`<li>${esc(board.markers[i])} ${esc(board.fighters[i].name)}</li>`);
  if (next.length > ORDER_SHOWN) items.push("<li>…</li>");
  ol.innerHTML = items.join("") || "<li>Rundenende</li>";
}

export function narrate(ol, lines, current = -1) {
  ol.innerHTML = lines.map((l, i) => `<li class="${i >= current && current >= 0 ? "current" : ""}">${esc(l)}</li>`).join("");
  ol.scrollTop = ol.scrollHeight;
}

export function decisionText(board) {
  if (board.outcome) {
    const w = board.outcome.winner;
    return `Kampf vorbei: ${w ? `Sieg ${w}` : "unentschieden"} (${board.outcome.reason}, Runde ${board.outcome.rounds})`;
  }
  const d = board.decision;
  if (!d) return "";
  return `Runde ${board.round} · ${d.decision_label || board.decision_label || d.kind}: ${board.markers[d.fighter]} ${d.name}`;
}

// The legal actions as buttons (moves in one list, chosen on the map or here).
export function menu(section, board, onPick) {
  section.replaceChildren();
  const legal = board.legal_actions || [];
  if (!legal.length) return;
  const moves = legal.filter((a) => a.action.kind === "MOVE" || a.action.kind === "SCHWIERIG");
  const others = legal.filter((a) => !moves.includes(a));
  const h = document.createElement("h2");
  h.textContent = "Aktionen";
  section.append(h);
  if (moves.length) {
    const label = document.createElement("label");
    label.textContent = "Bewegen nach ";
    const select = document.createElement("select");
    select.id = "move-select";
    for (const m of moves) {
      const o = document.createElement("option");
      o.value = m.id;
      o.textContent = m.label;
      o.dataset.x = m.action.cell % board.map.width;
      o.dataset.y = Math.floor(m.action.cell / board.map.width);
      select.append(o);
    }
    const go = document.createElement("button");
    go.id = "move-go";
    go.textContent = "Bewegen";
    go.addEventListener("click", () => onPick(Number(select.value)));
    label.append(select);
    section.append(label, go);
  }
  for (const a of others) section.append(actionButton(a, onPick));
}

export function actionButton(a, onPick) {
  const b = document.createElement("button");
  b.className = "action";
  b.dataset.id = a.id;
  b.dataset.kind = a.action.kind;
  const odds = oddsText(a);
  b.innerHTML = `${esc(a.label)}${odds ? ` <span class="odds">— ${esc(odds)}</span>` : ""}`;
  b.addEventListener("click", () => onPick(a.id));
  return b;
}
