// The live board: reads the group from the path and the view token from the fragment
// (#view=…, never sent to any server), then follows the server's event stream. Every
// label (T2, +3, thru 7, DNF) comes from the server, computed by the same rules as the
// kiosk; this file only lays it out. Text goes in through textContent, never as HTML.

const group = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const token = new URLSearchParams(location.hash.slice(1)).get("view");
const connection = document.getElementById("connection");
const roundsEl = document.getElementById("rounds");
const template = document.getElementById("round-template");
const nightTemplate = document.getElementById("night-template");

let lastHead = -1;
// The to-par each row showed, to mark the rows that changed.
let shown = new Map();

function status(text, kind) {
  connection.textContent = text;
  connection.className = `connection ${kind}`;
}

function row(r, previous) {
  const li = document.createElement("li");
  li.className = "row";
  if (r.progress === "DNF") li.classList.add("dnf");
  const key = `${r.name}\u0000${r.position}`;
  if (previous !== undefined && previous.get(r.name) !== undefined && previous.get(r.name) !== r.toPar) {
    li.classList.add("changed");
  }
  const position = document.createElement("span");
  position.className = "position";
  position.textContent = r.position;
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = r.name;
  // On a night ranked by net (issue 37), a player without a handicap is ranked gross.
  for (const [on, text] of [[r.guest, "guest"], [r.rankedGross, "gross"]]) {
    if (!on) continue;
    const tag = document.createElement("span");
    tag.className = "guest";
    tag.textContent = text;
    name.append(tag);
  }
  const progress = document.createElement("span");
  progress.className = "progress";
  progress.textContent = r.progress;
  const toPar = document.createElement("span");
  toPar.className = "to-par" + (r.toParValue < 0 ? " under" : r.toParValue > 0 ? " over" : "");
  toPar.textContent = r.toPar;
  if (r.gross !== undefined) toPar.title = `${r.gross} gross, handicap ${r.handicap}`;
  li.dataset.key = key;
  if (r.card !== undefined) {
    const card = document.createElement("span");
    card.className = "card";
    card.textContent = r.card;
    li.append(position, card, name, progress, toPar);
  } else {
    li.append(position, name, progress, toPar);
  }
  return li;
}

// A league night (issue 36): every card's players ranked together, the cards' progress,
// and the side games, all as the server worded them.
function nightSection(night, previous, rows) {
  const section = nightTemplate.content.firstElementChild.cloneNode(true);
  section.dataset.round = night.id;
  section.querySelector(".course").textContent = `${night.name} · ${night.course}`;
  if (night.net) {
    // Ranked by net (issue 37): said in the header, so nobody mistakes it for gross.
    section.classList.add("net");
    const tag = document.createElement("span");
    tag.className = "net-tag";
    tag.textContent = "net";
    section.querySelector(".course").append(tag);
  }
  const cards = night.cards.map((c) => `${c.letter} ${c.progress}`).join(" · ");
  section.querySelector(".meta").textContent =
    `${night.status === "final" ? "final" : `${night.cards.length} cards`} · par ${night.par} · ${cards}`;
  section.querySelector(".rows").append(...night.rows.map((r) => {
    rows.set(r.name, r.toPar);
    return row(r, previous);
  }));
  const side = [...night.skins, ...night.closestToPin, ...(night.aces.length ? [`Aces: ${night.aces.join(", ")}`] : [])];
  section.querySelector(".side").append(...side.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  return section;
}

// The season's table (issue 37), between rounds: each player's place, events and points or
// to-par, as the server worded them ("gross" for a net season's player without a handicap).
function seasonSection(season) {
  const section = template.content.firstElementChild.cloneNode(true);
  section.classList.add("season");
  section.dataset.round = "season";
  section.querySelector(".course").textContent = `${season.net ? "Season · net" : "Season"} · ${season.name}`;
  section.querySelector(".meta").textContent =
    `${season.rule} · ${season.events} ${season.events === 1 ? "event" : "events"} · ${season.from} to ${season.to}`;
  const toPar = !season.rule.startsWith("points");
  section.querySelector(".rows").append(...season.rows.map((r) => {
    const events = `${r.attended} ${r.attended === 1 ? "event" : "events"}`;
    return row({
      position: r.position, name: r.name, guest: false,
      progress: r.note ? `${events} · ${r.note}` : events,
      toPar: r.value,
      toParValue: toPar && r.value.startsWith("+") ? 1 : toPar && r.value.startsWith("-") ? -1 : 0,
    });
  }));
  return section;
}

function meta(round) {
  if (round.status === "completed") return `final · par ${round.par}`;
  const played = Math.max(0, ...round.rows.map((r) => (r.progress.startsWith("thru ") ? Number(r.progress.slice(5)) : r.progress === "F" ? round.holes : 0)));
  return `${round.holes} holes · par ${round.par} · thru ${played}`;
}

function render(board) {
  if (board.head < lastHead) return; // an older board arriving late
  lastHead = board.head;
  document.getElementById("group").textContent = board.group.name;
  document.title = `${board.group.name} · live board`;
  const next = new Map();
  const nights = (board.nights ?? []).map((night) => {
    const rows = new Map();
    const section = nightSection(night, shown.get(night.id), rows);
    next.set(night.id, rows);
    return section;
  });
  const sections = board.rounds.map((round) => {
    const section = template.content.firstElementChild.cloneNode(true);
    section.dataset.round = round.id;
    section.querySelector(".course").textContent = round.course;
    section.querySelector(".meta").textContent = meta(round);
    const badge = section.querySelector(".badge");
    if (round.discrepancies > 0) {
      badge.hidden = false;
      badge.textContent = `${round.discrepancies} to check`;
    }
    const previous = shown.get(round.id);
    const rows = new Map();
    section.querySelector(".rows").append(...round.rows.map((r) => {
      rows.set(r.name, r.toPar);
      return row(r, previous);
    }));
    next.set(round.id, rows);
    return section;
  });
  shown = next;
  const season = board.season ? [seasonSection(board.season)] : [];
  roundsEl.replaceChildren(...nights, ...sections, ...season);
  fit(board);
  page();
  roundsEl.dataset.head = String(board.head);
  document.getElementById("empty").hidden = board.rounds.length + nights.length + season.length > 0;
}

// A wall TV: nobody can scroll it. A night (or the season's table) longer than the screen pages as the kiosk's
// board does: the leaders (the top 3 and everyone tied with them, at most half the room)
// stay, the rest turn a page every PAGE_MS, and the last row says which places show. A
// phone (upright, or narrower than a TV) scrolls instead.
const PAGE_MS = 8000;
function isWall() {
  return window.innerWidth >= 900 && window.innerWidth > window.innerHeight;
}
function leaders(items) {
  if (items.length <= 3) return items.length;
  const third = items[2].querySelector(".position").textContent.replace("T", "");
  if (third === "–") return 3;
  let n = 0;
  while (n < items.length && Number(items[n].querySelector(".position").textContent.replace("T", "")) <= Number(third)) n++;
  return n;
}
function page() {
  for (const section of roundsEl.querySelectorAll(".night, .season")) {
    const list = section.querySelector(".rows");
    list.querySelector(".more")?.remove();
    const items = [...list.children];
    for (const li of items) li.hidden = false;
    if (!isWall() || items.length === 0) continue;
    // The side games take height only when they are under the rows (not beside them).
    const sideBox = section.querySelector(".side")?.getBoundingClientRect();
    const side = sideBox && sideBox.top >= list.getBoundingClientRect().bottom - 1 ? sideBox.height : 0;
    const top = list.getBoundingClientRect().top + window.scrollY;
    const rowH = items[0].getBoundingClientRect().height;
    const room = Math.floor((window.innerHeight - top - side - rowH * 0.5) / rowH);
    if (items.length <= room) continue;
    const slots = Math.max(2, room - 1); // one for the page line
    const pinned = Math.min(leaders(items), Math.max(3, Math.floor(slots / 2)), slots - 1);
    const perPage = Math.max(1, slots - pinned);
    const pages = Math.ceil((items.length - pinned) / perPage);
    const current = Math.floor(Date.now() / PAGE_MS) % pages;
    const first = pinned + current * perPage;
    const last = Math.min(items.length, first + perPage);
    items.forEach((li, i) => { li.hidden = i >= pinned && (i < first || i >= last); });
    const more = document.createElement("li");
    more.className = "row more";
    more.textContent = last - first === 1 ? `${last} of ${items.length}` : `${first + 1}–${last} of ${items.length}`;
    list.append(more);
    section.dataset.pages = String(pages);
  }
}
setInterval(page, 1000);
window.addEventListener("resize", page);

// The text size: as big as the viewport allows (6 % of the height on a TV, 7.5 % of the
// width on a phone upright), smaller when a big group would not fit the screen, but never
// under the kiosk's readable minimum, 1/24 of the screen's shorter side (docs/architecture.md,
// "Readable sizes"): below that the page scrolls instead, as a phone does anyway.
let lastBoard = null;
function fit(board) {
  lastBoard = board;
  const most = Math.max(
    1, ...board.rounds.map((r) => r.rows.length), ...(board.nights ?? []).map((n) => n.rows.length),
    board.season?.rows.length ?? 0);
  // Each row is 1.6 lines, plus the page's title and each round's header (about 4 lines).
  const fitting = window.innerHeight / (most * 1.6 + 4);
  const readable = Math.max(20, Math.min(window.innerWidth, window.innerHeight) / 24);
  const biggest = Math.min(window.innerHeight * 0.06, window.innerWidth * 0.075);
  const size = Math.max(readable, Math.min(biggest, fitting));
  document.documentElement.style.setProperty("--row", `${size.toFixed(1)}px`);
}
window.addEventListener("resize", () => lastBoard && fit(lastBoard));

// Server-sent events over fetch (not EventSource) so the token travels in a header,
// never in a URL a proxy would log.
async function follow() {
  const response = await fetch(`/v1/groups/${encodeURIComponent(group)}/board/events`, {
    headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" },
    cache: "no-store",
  });
  if (response.status === 401 || response.status === 403) {
    const body = await response.json().catch(() => ({}));
    throw Object.assign(new Error(body?.error?.message ?? "this board link is not valid"), { refused: true });
  }
  if (!response.ok || !response.body) throw new Error(`the server answered ${response.status}`);
  status("live", "live");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the server closed the stream");
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (event === "board" && data.length > 0) render(JSON.parse(data.join("\n")));
    }
  }
}

async function run() {
  if (!token || !group) {
    status("This board link does not work: it has no view token. Ask the group's admin for a new one.", "refused");
    return;
  }
  let delay = 1000;
  for (;;) {
    const started = Date.now();
    try {
      await follow();
    } catch (error) {
      if (error.refused) {
        status(`This board link does not work: ${error.message}.`, "refused");
        return;
      }
      // A stream that ran a while was healthy: start the backoff over.
      if (Date.now() - started > 30000) delay = 1000;
      status("reconnecting…", "lost");
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 30000);
  }
}

run();
