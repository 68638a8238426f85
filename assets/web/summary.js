// A finished round's summary: reads the link's token from its own path (/s/TOKEN), asks
// the server for the round's summary, and lays it out. Every label (T2, +3, DNF) comes
// from the server, computed by the same rules as the kiosk. "Save as PNG" draws the same
// card on a canvas, for a group chat. Text goes in through textContent, never as HTML.

const token = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const el = (id) => document.getElementById(id);
const statusEl = el("status");
const pngButton = el("png");
let summary = null;

// The canvas's colours are the stylesheet's (common.css), read when the PNG is drawn.
function palette() {
  const style = getComputedStyle(document.documentElement);
  const get = (name) => style.getPropertyValue(`--${name}`).trim();
  return Object.fromEntries(
    ["background", "elevated", "tertiary", "text", "secondary", "accent", "under", "over"].map((n) => [n, get(n)]));
}

function toParClass(value) {
  return value < 0 ? "under" : value > 0 ? "over" : "";
}

// "Saturday 21 November 2026", the kiosk card's date.
function longDate(seconds) {
  const parts = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric" })
    .formatToParts(new Date(seconds * 1000));
  const part = (type) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("weekday")} ${part("day")} ${part("month")} ${part("year")}`;
}

function metaLine(s) {
  const r = s.round;
  const meta = [`${r.holes} holes`, `par ${r.par}`];
  if (r.startedAt && r.completedAt && r.completedAt - r.startedAt >= 60) {
    const minutes = Math.floor((r.completedAt - r.startedAt) / 60);
    meta.push(minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`);
  }
  if (s.organizer) meta.push(`organized by ${s.organizer}`);
  if (r.status !== "completed") meta.push("in play");
  return meta.join(" · ");
}

// A league night's day ("2026-11-26") as the round's date is said.
function dayDate(day) {
  return longDate(Date.parse(`${day}T12:00:00Z`) / 1000);
}

// What the page shows at the top: the round's standings, or, for a league night's card
// (issue 36), the night's: every card's players ranked together, with the side games.
function view(s) {
  const n = s.night;
  if (!n) {
    return {
      title: s.round.course, date: longDate(s.round.completedAt ?? s.round.startedAt ?? Date.now() / 1000),
      rows: s.round.rows, meta: metaLine(s), live: s.round.status !== "completed",
      liveNote: "This round is still in play: the standings so far.", sides: [],
    };
  }
  const players = n.rows.length;
  const meta = [`${players} ${players === 1 ? "player" : "players"}`, `${n.cards.length} ${n.cards.length === 1 ? "card" : "cards"}`,
    `${n.holes} holes`, `par ${n.par}`, ...(n.net ? ["ranked by net"] : [])];
  return {
    title: n.name, date: `${dayDate(n.day)} · ${n.course}`, rows: n.rows, meta: meta.join(" · "), live: n.status === "live",
    liveNote: "Cards are still out: the night's standings so far.",
    sides: [...n.skins, ...n.closestToPin, ...(n.aces.length ? [`Aces: ${n.aces.join(", ")}`] : [])],
  };
}

function medal(position) {
  if (position === "1" || position === "T1") return "gold";
  return ["2", "3", "T2", "T3"].includes(position) ? "podium" : "";
}

// On a night ranked by net (issue 37) the value is net; the gross and the handicap go
// with the strokes, and a player without a handicap is said to be ranked gross.
function strokesText(row) {
  const strokes = row.progress === "DNF" ? `DNF · ${row.strokes} strokes` : `${row.strokes} strokes`;
  if (row.gross !== undefined) return `${strokes} · ${row.gross} gross, handicap ${row.handicap}`;
  return row.rankedGross ? `gross · ${strokes}` : strokes;
}

function render(s) {
  summary = s;
  const v = view(s);
  document.title = `${v.title} · ${s.night ? "league night" : "round summary"}`;
  el("group").textContent = s.group.name;
  el("course").textContent = v.title;
  el("date").textContent = v.date;
  statusEl.textContent = v.live ? v.liveNote : "";
  statusEl.className = "status";
  const rows = v.rows.map((row) => {
    const li = document.createElement("li");
    li.className = ["row", medal(row.position), row.progress === "DNF" ? "dnf" : ""].filter(Boolean).join(" ");
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = row.position;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = row.name;
    if (row.guest) {
      const guest = document.createElement("span");
      guest.className = "guest";
      guest.textContent = "guest";
      name.append(guest);
    }
    if (row.card) {
      const card = document.createElement("span");
      card.className = "card-tag";
      card.textContent = `card ${row.card}`;
      name.append(card);
    }
    const strokes = document.createElement("span");
    strokes.className = "strokes";
    strokes.textContent = strokesText(row);
    const toPar = document.createElement("span");
    toPar.className = `to-par ${toParClass(row.toParValue)}`;
    toPar.textContent = row.toPar;
    li.append(badge, name, strokes, toPar);
    return li;
  });
  el("rows").replaceChildren(...rows);
  el("meta").textContent = v.meta;
  const sides = el("sides");
  sides.replaceChildren(...v.sides.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  sides.hidden = v.sides.length === 0;
  // On a night, the card below is this round's, one of several: it says which.
  const cardTitle = el("card-title");
  cardTitle.textContent = s.card ? `Card ${s.card} · ${s.round.course}` : "";
  cardTitle.hidden = !s.card;
  renderScorecard(s);
  pngButton.hidden = false;
}

function renderScorecard(s) {
  const table = el("scorecard");
  const cell = (tag, text, className, scope) => {
    const c = document.createElement(tag);
    c.textContent = text;
    if (className) c.className = className;
    if (scope) c.scope = scope;
    return c;
  };
  const head = document.createElement("thead");
  const holes = document.createElement("tr");
  holes.append(cell("th", "Hole", "", "col"), ...s.pars.map((_, i) => cell("th", String(i + 1), "", "col")));
  head.append(holes);
  const body = document.createElement("tbody");
  const par = document.createElement("tr");
  par.className = "par";
  par.append(cell("th", "Par", "", "row"), ...s.pars.map((p) => cell("td", String(p))));
  body.append(par);
  let corrections = 0;
  for (const card of s.cards) {
    const tr = document.createElement("tr");
    tr.append(cell("th", card.name, "", "row"));
    const corrected = new Set(card.correctedHoles || []);
    card.strokes.forEach((value, i) => {
      const td = value === null ? cell("td", "–", "missing") : cell("td", String(value), toParClass(card.toPar[i]));
      // Issue 35: a value corrected after the finish is marked, and says so when pointed at.
      if (corrected.has(i + 1)) {
        td.classList.add("corrected");
        td.title = "Corrected after the finish";
        corrections += 1;
      }
      tr.append(td);
    });
    body.append(tr);
  }
  table.replaceChildren(head, body);
  table.hidden = false;
  const note = document.getElementById("corrections");
  if (note) {
    note.hidden = corrections === 0;
    note.textContent = corrections === 1 ? "* One score was corrected after the finish."
      : `* ${corrections} scores were corrected after the finish.`;
  }
}

// The card as a PNG, 1080 px wide (a phone's screen, a group chat's preview), drawn with
// the page's own fonts once they are loaded.
export async function drawPNG(s) {
  await Promise.all(["700 40px Quicksand", "500 40px Quicksand", "700 40px 'JetBrains Mono'"].map((f) => document.fonts.load(f)));
  const colors = palette();
  const width = 1080;
  const margin = 64;
  const rowH = 112;
  const gap = 16;
  const top = 300;
  const v = view(s);
  const height = top + v.rows.length * (rowH + gap) + 180 + v.sides.length * 44;
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext("2d");
  const fit = (text, max) => {
    if (g.measureText(text).width <= max) return text;
    let t = text;
    while (t.length > 1 && g.measureText(t + "…").width > max) t = t.slice(0, -1);
    return t + "…";
  };
  g.fillStyle = colors.background;
  g.fillRect(0, 0, width, height);
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillStyle = colors.accent;
  g.font = "700 30px Quicksand";
  g.fillText(fit(s.group.name.toUpperCase(), width - 2 * margin), width / 2, 80);
  g.fillStyle = colors.text;
  g.font = "700 76px Quicksand";
  g.fillText(fit(v.title, width - 2 * margin), width / 2, 160);
  g.fillStyle = colors.secondary;
  g.font = "500 36px Quicksand";
  g.fillText(fit(v.date, width - 2 * margin), width / 2, 232);
  v.rows.forEach((row, i) => {
    const y = top + i * (rowH + gap);
    g.fillStyle = colors.elevated;
    g.beginPath();
    g.roundRect(margin, y, width - 2 * margin, rowH, 28);
    g.fill();
    const kind = medal(row.position);
    const badgeX = margin + 24 + 40;
    if (kind) {
      g.strokeStyle = kind === "gold" ? colors.accent : colors.text;
      g.lineWidth = 5;
      g.beginPath();
      g.arc(badgeX, y + rowH / 2, 38, 0, Math.PI * 2);
      g.stroke();
    }
    g.textAlign = "center";
    g.fillStyle = kind === "gold" ? colors.accent : kind ? colors.text : colors.secondary;
    g.font = "700 36px 'JetBrains Mono'";
    g.fillText(row.position, badgeX, y + rowH / 2);
    const dnf = row.progress === "DNF";
    g.textAlign = "right";
    g.font = "700 52px 'JetBrains Mono'";
    g.fillStyle = dnf ? colors.secondary : row.toParValue < 0 ? colors.under : row.toParValue > 0 ? colors.over : colors.text;
    const right = width - margin - 32;
    g.fillText(row.toPar, right, y + rowH / 2);
    g.font = "500 30px Quicksand";
    g.fillStyle = colors.secondary;
    const strokes = (row.card ? `${row.card} · ` : "") + strokesText(row);
    const strokesRight = right - 150;
    g.fillText(strokes, strokesRight, y + rowH / 2);
    g.textAlign = "left";
    g.font = "700 46px Quicksand";
    g.fillStyle = dnf ? colors.secondary : colors.text;
    const nameX = badgeX + 64;
    g.fillText(fit(row.name, strokesRight - g.measureText(strokes).width - 32 - nameX), nameX, y + rowH / 2);
  });
  const metaY = top + v.rows.length * (rowH + gap) + 40;
  g.fillStyle = colors.tertiary;
  g.fillRect(margin, metaY, width - 2 * margin, 2);
  g.textAlign = "center";
  g.fillStyle = colors.secondary;
  g.font = "500 30px Quicksand";
  g.fillText(fit(v.meta, width - 2 * margin), width / 2, metaY + 60);
  v.sides.forEach((line, i) => g.fillText(fit(line, width - 2 * margin), width / 2, metaY + 110 + i * 44));
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}

function fileName(s) {
  const date = s.night?.day
    ?? new Date((s.round.completedAt ?? s.round.startedAt ?? Date.now() / 1000) * 1000).toISOString().slice(0, 10);
  const course = (s.night?.name ?? s.round.course).replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "") || "round";
  return `${course}-${date}.png`;
}

pngButton.addEventListener("click", async () => {
  if (!summary) return;
  const blob = await drawPNG(summary);
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = fileName(summary);
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
});

// The summary once opened is kept on the phone (issue 32): the last answer in this
// origin's localStorage, shown when the server cannot be reached (a finished round does not
// change), and the page itself in the service worker's cache where the browser runs one
// (https; see sw.js). A revoked link forgets it.
const savedKey = `hyzer.summary.${token}`;

function showSaved() {
  const saved = JSON.parse(localStorage.getItem(savedKey) ?? "null");
  if (!saved) return false;
  render(saved.summary);
  statusEl.textContent = `No signal: the copy saved on this phone at ${new Date(saved.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.`;
  return true;
}

async function load() {
  let response;
  try {
    response = await fetch(`/v1/summaries/${encodeURIComponent(token)}`, { cache: "no-store" });
  } catch {
    if (!showSaved()) statusEl.textContent = "Cannot reach the group server; trying again…";
    return setTimeout(load, 3000);
  }
  if (response.status === 202) {
    // The kiosk's push of this round is still on its way.
    statusEl.textContent = "Waiting for the kiosk to send this round…";
    const seconds = Number(response.headers.get("Retry-After")) || 3;
    return setTimeout(load, seconds * 1000);
  }
  if (response.ok) {
    const body = await response.json();
    try {
      localStorage.setItem(savedKey, JSON.stringify({ at: Date.now(), summary: body }));
    } catch {
      // Storage full or switched off: the page still shows what it has.
    }
    return render(body);
  }
  if (response.status === 404) {
    localStorage.removeItem(savedKey);
    el("rows").replaceChildren();
    el("scorecard").hidden = true;
  }
  statusEl.className = "status refused";
  statusEl.textContent = response.status === 404
    ? "This summary link is unknown or was revoked. Scan the kiosk's summary card again."
    : `The server refused this summary (${response.status}).`;
}

if (window.isSecureContext && "serviceWorker" in navigator) navigator.serviceWorker.register("/s/sw.js").catch(() => {});
load();
