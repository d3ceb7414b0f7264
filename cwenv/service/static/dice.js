// Dice from the table (a fight begun with "Würfel vom Tisch", dice: table): the service
// never rolls; when a step needs a W10 the page says what it is for (the service's own
// line, waiting_for_die.for) and the GM clicks or types the die that was rolled.
export function dicePrompt(box, waiting, send) {
  box.hidden = !waiting;
  if (!waiting) { box.replaceChildren(); return; }
  const h = document.createElement("h2");
  h.textContent = "Würfel vom Tisch";
  const what = document.createElement("p");
  what.id = "die-for";
  what.textContent = waiting.for;
  const faces = document.createElement("div");
  faces.className = "faces";
  faces.setAttribute("role", "group");
  faces.setAttribute("aria-label", "gewürfelte W10");
  for (let v = 1; v <= 10; v++) {
    const b = document.createElement("button");
    b.className = "die";
    b.dataset.value = String(v);
    b.textContent = String(v);
    b.setAttribute("aria-keyshortcuts", String(v % 10));
    b.addEventListener("click", () => send(v));
    faces.append(b);
  }
  box.replaceChildren(h, what, faces);
  faces.querySelector("button").focus();
}

// keys 1–9 and 0 (for the 10) send a die while the prompt is shown
export function dieOfKey(key) {
  if (!/^[0-9]$/.test(key)) return null;
  return key === "0" ? 10 : Number(key);
}
