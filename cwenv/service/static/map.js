// The SVG map: terrain, heights, doors and exits, fighters with LP bars, and overlays
// (reachable cells, line of sight, hit chances, attack lines, the NSC's proposal).
// Every marker has its own shape or letter besides its colour, for colour-blind players.
const NS = "http://www.w3.org/2000/svg";
export const CELL = 36;

// terrain character -> [css class, glyph, German name]
export const TERRAIN = {
  "#": ["wall", "", "Wand"],
  "=": ["cover-half", "½", "halbe Deckung"],
  "%": ["cover-three", "¾", "Dreivierteldeckung"],
  "~": ["water", "≈", "Wasser"],
  "H": ["climb", "H", "Kletterwand"],
  "+": ["door-closed", "▮", "Tür (zu)"],
  "/": ["door-open", "▯", "Tür (offen)"],
  "*": ["fire", "✱", "Feuer"],
};
const SHAPE = { RUNNER: "circle", GEGNER: "diamond", NEUTRAL: "triangle" };

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

const centre = (c) => [c.x * CELL + CELL / 2, c.y * CELL + CELL / 2];

function defs() {
  const d = el("defs");
  d.innerHTML = `
    <pattern id="hatch-wall" width="6" height="6" patternUnits="userSpaceOnUse">
      <rect width="6" height="6" fill="#555"/><path d="M0 6L6 0" stroke="#000" stroke-width="2"/></pattern>
    <pattern id="hatch-difficult" width="8" height="8" patternUnits="userSpaceOnUse">
      <path d="M0 8L8 0" stroke="#000" stroke-width="1.5"/></pattern>
    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto">
      <path d="M0 0L10 5L0 10z"/></marker>`;
  return d;
}

function terrainLayer(map) {
  const g = el("g", { id: "terrain" });
  map.rows.forEach((row, y) => {
    [...row].forEach((ch, x) => {
      const [cls, glyph] = TERRAIN[ch] || ["floor", ""];
      const r = el("rect", {
        class: `cell terrain-${cls}`, x: x * CELL, y: y * CELL, width: CELL, height: CELL,
        "data-x": x, "data-y": y,
      });
      g.append(r);
      if (glyph) {
        g.append(el("text", { class: "glyph", x: x * CELL + CELL / 2, y: y * CELL + CELL / 2 + 6,
          "text-anchor": "middle", "font-size": 18 }, glyph));
      }
      const h = parseInt(map.elevation[y][x], 36);
      if (h > 0) {
        g.append(el("text", { class: "height", "data-height": h, x: x * CELL + 2, y: y * CELL + 10,
          "font-size": 9 }, `▲${h}`));
      }
    });
  });
  for (const exit of map.exits) {
    g.append(el("text", { class: "exit", x: exit.x * CELL + CELL / 2, y: exit.y * CELL + CELL - 4,
      "text-anchor": "middle", "font-size": 12, "font-weight": "bold" }, "⇲A"));
  }
  return g;
}

function token(shape, cx, cy, r) {
  if (shape === "circle") return el("circle", { class: "token", cx, cy, r });
  if (shape === "diamond") {
    return el("polygon", { class: "token",
      points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}` });
  }
  return el("polygon", { class: "token", points: `${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}` });
}

function fighterLayer(board, selected) {
  const g = el("g", { id: "fighters-layer" });
  board.fighters.forEach((f, i) => {
    if (!f.cell || f.fled) return;
    const [cx, cy] = centre(f.cell);
    const down = f.dead || f.down;
    const node = el("g", {
      class: `fighter side-${f.side}${down ? " down" : ""}${i === selected ? " selected" : ""}`,
      "data-index": i, "data-side": f.side, tabindex: down ? -1 : 0, role: "button",
      "aria-label": `${board.markers[i]} ${f.name}, LP ${f.lp}/${f.lp_max}, Mumm ${f.mumm}, Reaktionen ${f.reactions}`,
    });
    node.append(token(SHAPE[f.side] || "triangle", cx, cy - 3, 12));
    node.append(el("text", { class: "letter", x: cx, y: cy + 2, "text-anchor": "middle",
      "font-size": 13, "font-weight": "bold" }, board.markers[i] + (down ? "×" : "")));
    const frac = Math.max(0, f.lp) / Math.max(1, f.lp_max);
    node.append(el("rect", { class: "lp-back", x: cx - 14, y: cy + 11, width: 28, height: 4 }));
    node.append(el("rect", { class: "lp-bar", "data-lp": f.lp, x: cx - 14, y: cy + 11,
      width: (28 * frac).toFixed(1), height: 4 }));
    if (f.conditions.length) {
      node.append(el("text", { class: "conditions", x: cx + 12, y: cy - 10, "font-size": 9 },
        "!".repeat(Math.min(3, f.conditions.length))));
    }
    g.append(node);
  });
  return g;
}

function line(a, b, attrs) {
  const [x1, y1] = centre(a);
  const [x2, y2] = centre(b);
  return el("line", { x1, y1, x2, y2, ...attrs });
}

// overlay: {reachable, sight, targets, lines, proposal}
// returns the cell marks (under the fighters) and the lines (over them)
function overlayLayers(board, overlay) {
  const g = el("g", { id: "overlay" });
  const top = el("g", { id: "lines" });
  for (const c of overlay.sight || []) {
    const [cx, cy] = centre(c);
    g.append(el("circle", { class: "sight", cx, cy, r: 2.5, "data-x": c.x, "data-y": c.y }));
  }
  for (const c of overlay.reachable || []) {
    const kind = c.difficult ? "difficult" : "free";
    const r = el("rect", {
      class: `reach reach-${kind}`, "data-kind": kind, "data-id": c.id, "data-x": c.x, "data-y": c.y,
      x: c.x * CELL + 3, y: c.y * CELL + 3, width: CELL - 6, height: CELL - 6, tabindex: 0, role: "button",
      "aria-label": `${c.difficult ? "Schwierige Bewegung" : "Bewegen"} nach (${c.x}, ${c.y})`,
    });
    g.append(r);
    g.append(el("text", { class: "reach-glyph", x: c.x * CELL + CELL - 9, y: c.y * CELL + 12,
      "font-size": 10 }, c.difficult ? "S" : "○"));
  }
  for (const t of overlay.targets || []) {
    if (!t.cell) continue;
    const [cx, cy] = centre(t.cell);
    const text = t.attack ? `${Math.round(t.attack.hit * 100)} %` : (t.in_sight ? "sichtbar" : "verdeckt");
    g.append(el("text", { class: "hit-chance", "data-target": t.fighter, x: cx, y: cy - 18,
      "text-anchor": "middle", "font-size": 11, "font-weight": "bold" }, text));
  }
  for (const l of overlay.lines || []) {
    const a = board.fighters[l.from]?.cell;
    const b = board.fighters[l.to]?.cell;
    if (!a || !b) continue;
    top.append(line(a, b, { class: `attack-line ${l.hit ? "hit" : "miss"}`, "data-from": l.from,
      "data-to": l.to, "data-hit": l.hit, "marker-end": "url(#arrow)" }));
  }
  const p = overlay.proposal;
  if (p) {
    const actor = board.fighters[p.action.actor]?.cell;
    const to = p.action.target >= 0 ? board.fighters[p.action.target]?.cell : p.cell;
    if (actor && to) {
      top.append(line(actor, to, { class: "proposal", "marker-end": "url(#arrow)", "data-kind": p.action.kind }));
      top.append(el("rect", { class: "proposal-cell", x: to.x * CELL + 1, y: to.y * CELL + 1,
        width: CELL - 2, height: CELL - 2 }));
    } else if (actor) {
      top.append(el("circle", { class: "proposal", cx: centre(actor)[0], cy: centre(actor)[1], r: 17,
        "data-kind": p.action.kind }));
    }
  }
  return [g, top];
}

export function drawMap(svg, board, overlay = {}, selected = null) {
  const map = board.map;
  svg.replaceChildren();
  svg.setAttribute("width", map.width * CELL);
  svg.setAttribute("height", map.height * CELL);
  svg.setAttribute("viewBox", `0 0 ${map.width * CELL} ${map.height * CELL}`);
  const [marks, lines] = overlayLayers(board, overlay);
  svg.append(defs(), terrainLayer(map), marks, fighterLayer(board, selected), lines);
}

export function legendHtml(map) {
  const used = new Set(map.rows.join(""));
  const parts = Object.entries(TERRAIN)
    .filter(([ch]) => used.has(ch))
    .map(([, [cls, glyph, name]]) => `<span class="key-${cls}">${glyph || "▩"} ${name}</span>`);
  if (map.elevation.some((r) => /[1-9a-z]/.test(r))) parts.push("<span>▲n Höhe in m</span>");
  if (map.exits.length) parts.push("<span>⇲A Ausgang</span>");
  parts.push("<span>● Runner (A…)</span>", "<span>◆ Gegner (a…)</span>", "<span>▲ Neutrale (1…)</span>",
    "<span>○ erreichbar</span>", "<span>S Schwierige Bewegung</span>", "<span>· in Sichtlinie</span>",
    "<span>→ Angriff (durchgezogen: Treffer, gestrichelt: verfehlt)</span>");
  return parts.join(" ");
}

export function linesOf(events) {
  // the attack lines of a step, from its events (the same reading as the service's board.py)
  const lines = [];
  for (const e of events) {
    const d = e.data;
    if (e.type === "AttackDeclared") lines.push({ from: d.attacker, to: d.target, hit: false });
    else if (e.type === "AttackRedirected") lines.push({ from: d.attacker, to: d.new_target, hit: false });
    else if (e.type === "Hit") {
      const line = lines.find((l) => l.from === d.attacker && l.to === d.target);
      if (line) line.hit = true; else lines.push({ from: d.attacker, to: d.target, hit: true });
    }
  }
  return lines;
}
