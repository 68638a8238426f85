// The phone's scorecard: one more device of the group, offline first.
//
// Everything the phone knows lives in IndexedDB: the group's records as pulled (courses,
// players, rounds, score events) and an outbox of the scores entered here. A score is
// saved to the outbox and shown at once; the sync loop pushes the outbox and pulls the
// feed with the same protocol, cursor and idempotency as every other device (a retried
// push of the same event is a duplicate, never a second score), so a phone that spent
// four hours without signal loses and doubles nothing. The standings are computed here,
// by the devices' rules (rules.js), so they work offline too.

import { uuid } from "/web/ids.js";
import { el } from "/web/dom.js";
import { cellKey, holeOrder, scorecard, standings, supersedable, toPar } from "/web/rules.js";
import { startVoice, voiceSupport } from "/web/phone-voice.js";

// Whether this browser can score by voice here (issue 38), and if not, why: asked once.
const voice = voiceSupport();

const creds = JSON.parse(localStorage.getItem("hyzer.phone") ?? "null");
const app = document.getElementById("app");
const syncLine = document.getElementById("sync");

// ---- IndexedDB ---------------------------------------------------------------------

const db = await new Promise((resolve, reject) => {
  const open = indexedDB.open("hyzer-phone", 1);
  open.onupgradeneeded = () => {
    const d = open.result;
    d.createObjectStore("records", { keyPath: "key" }); // courses, players, rounds: the winning version
    d.createObjectStore("events", { keyPath: "id" }).createIndex("round", "roundID");
    d.createObjectStore("outbox", { keyPath: "id" }); // score events not yet acknowledged
    d.createObjectStore("meta", { keyPath: "key" }); // the pull cursor and the epoch
  };
  open.onsuccess = () => resolve(open.result);
  open.onerror = () => reject(open.error);
});

function transaction(stores, mode, body) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(stores, mode);
    let result;
    Promise.resolve(body(tx)).then((value) => (result = value), reject);
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("transaction aborted"));
  });
}

const request = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));

// ---- State -------------------------------------------------------------------------

const lifecycle = { setup: 0, active: 1, awaitingFinalization: 2, completed: 3 };
// The order in which versions of a course, player or round win (ChangeStamp): the later
// lifecycle (rounds), then the later time, then the version's bytes.
function newer(a, b) {
  const la = lifecycle[a.status] ?? 0;
  const lb = lifecycle[b.status] ?? 0;
  if (la !== lb) return la > lb;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt;
  return a.version.toLowerCase() > b.version.toLowerCase();
}

const state = {
  rounds: new Map(),
  courses: new Map(),
  players: new Map(), // the group's players: their aliases are what voice may hear for them
  events: new Map(), // round id -> [event]
  outbox: 0,
  round: localStorage.getItem("hyzer.phone.round"),
  hole: null,
  picker: null, // { participant, strokes }
  expanded: false,
  sync: { kind: "", text: "" },
  refused: null,
};

async function load() {
  await transaction(["records", "events", "outbox"], "readonly", async (tx) => {
    const records = await request(tx.objectStore("records").getAll());
    state.rounds = new Map(records.filter((r) => r.kind === "round").map((r) => [r.data.id, r.data]));
    state.courses = new Map(records.filter((r) => r.kind === "course").map((r) => [r.data.id, r.data]));
    state.players = new Map(records.filter((r) => r.kind === "player").map((r) => [r.data.id.toLowerCase(), r.data]));
    state.events = new Map();
    for (const e of await request(tx.objectStore("events").getAll())) {
      if (!state.events.has(e.roundID)) state.events.set(e.roundID, []);
      state.events.get(e.roundID).push(e);
    }
    state.outbox = await request(tx.objectStore("outbox").count());
  });
}

// ---- Sync --------------------------------------------------------------------------

const headers = () => ({
  Authorization: `Bearer ${creds.token}`,
  "X-Hyzer-Device": creds.deviceID,
  "Content-Type": "application/json",
});

class Refused extends Error {}

async function call(path, init = {}) {
  const response = await fetch(path, { ...init, headers: headers(), cache: "no-store" });
  if (response.status === 401 || response.status === 403) {
    const body = await response.json().catch(() => ({}));
    throw new Refused(body?.error?.message ?? "this phone is no longer in the group");
  }
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
  return response.json();
}

async function push() {
  const pending = await transaction(["outbox"], "readonly", (tx) => request(tx.objectStore("outbox").getAll()));
  if (pending.length === 0) return;
  const batch = pending.slice(0, 500).map((p) => p.record);
  const answer = await call("/v1/push", { method: "POST", body: JSON.stringify({ deviceID: creds.deviceID, records: batch }) });
  // Only an acknowledged event leaves the outbox: created now, or already there from an
  // earlier try whose answer was lost. A refused one leaves too, with its reason shown.
  await transaction(["outbox"], "readwrite", (tx) => {
    for (const result of answer.results) {
      if (result.status === "rejected") state.refused = result.reason;
      tx.objectStore("outbox").delete(result.id);
    }
  });
}

async function pull() {
  for (;;) {
    const cursor = (await transaction(["meta"], "readonly", (tx) => request(tx.objectStore("meta").get("cursor")))) ?? {
      key: "cursor", epoch: null, after: 0,
    };
    const page = await call(`/v1/pull?after=${cursor.after}&limit=500`);
    await transaction(["records", "events", "outbox", "meta"], "readwrite", async (tx) => {
      if (cursor.epoch !== null && page.epoch !== cursor.epoch) {
        // The server was restored from a backup: pull everything again from the start,
        // and push every score of this phone again (the server keeps what it already has).
        for (const e of await request(tx.objectStore("events").getAll())) {
          if (e.deviceID === creds.deviceID) tx.objectStore("outbox").put({ id: e.id, record: { kind: "scoreEvent", data: e } });
        }
        tx.objectStore("meta").put({ key: "cursor", epoch: page.epoch, after: 0 });
        return;
      }
      for (const { record } of page.records) {
        if (record.kind === "scoreEvent") {
          tx.objectStore("events").put(record.data);
          continue;
        }
        const key = `${record.kind}:${record.data.id}`;
        const existing = await request(tx.objectStore("records").get(key));
        if (!existing || newer(record.data, existing.data)) tx.objectStore("records").put({ key, kind: record.kind, data: record.data });
      }
      tx.objectStore("meta").put({ key: "cursor", epoch: page.epoch, after: page.next });
    });
    if (cursor.epoch !== null && page.epoch !== cursor.epoch) continue;
    if (!page.hasMore) return;
  }
}

let syncing = null;
let again = false;
async function sync() {
  if (!creds || state.refused === "gone") return;
  if (syncing) {
    again = true;
    return syncing;
  }
  syncing = (async () => {
    do {
      again = false;
      try {
        await push();
        await pull();
        state.sync = { kind: "live", text: "synced" };
      } catch (error) {
        if (error instanceof Refused) {
          state.sync = { kind: "refused", text: `Not syncing: ${error.message}. Scan the kiosk's code to join again.` };
          state.refused = "gone";
        } else {
          state.sync = { kind: "waiting", text: "offline" };
        }
      }
      await load();
      render();
    } while (again);
  })();
  try {
    await syncing;
  } finally {
    syncing = null;
  }
}

// ---- Entering a score --------------------------------------------------------------

async function save(round, participant, hole, strokes) {
  await saveScores(round, hole, [{ participantID: participant, strokes }]);
}

// Several scores of one hole at once (a voice overlay's, issue 38, with `input` "voice"),
// in one transaction: all of them wait in the outbox, or none.
async function saveScores(round, hole, scores, input = null) {
  const cells = scorecard(state.events.get(round.id) ?? []);
  // The player this phone claimed at join (a registered participant's id is the player's),
  // else one of the same name.
  const me = round.participants.find((p) => creds.playerID && p.id.toUpperCase() === creds.playerID.toUpperCase()) ??
    round.participants.find((p) => p.name.toLowerCase() === creds.name.toLowerCase());
  const events = [];
  for (const { participantID, strokes } of scores) {
    const cell = cells.get(cellKey(participantID, hole));
    if (cell && cell.value === strokes && !cell.disputed) continue; // nothing to say
    events.push({
      id: uuid(),
      roundID: round.id,
      participantID,
      hole,
      strokes,
      // A correction supersedes what the phone saw in the cell (its current leaves, and an
      // undo's retraction, which a device older than retractions counts as a score).
      supersedes: supersedable(cell),
      // The person when the phone's owner plays in this round; otherwise nobody in particular
      // (the all-zero id), and the score is credited to the phone by its name (issue 14).
      reportedBy: me?.id ?? "00000000-0000-0000-0000-000000000000",
      deviceID: creds.deviceID,
      deviceName: `${creds.name}'s phone`,
      createdAt: Date.now() / 1000,
      isResolution: false,
      // How it was entered, when not by hand: every device says "by voice, Nate's phone".
      ...(input ? { input } : {}),
    });
  }
  if (events.length === 0) return;
  // Saved before anything else happens: the outbox and the phone's own copy, together.
  await transaction(["events", "outbox"], "readwrite", (tx) => {
    for (const event of events) {
      tx.objectStore("events").put(event);
      tx.objectStore("outbox").put({ id: event.id, record: { kind: "scoreEvent", data: event } });
    }
  });
  await load();
  render(events.map((e) => e.participantID));
  sync();
}

// ---- Drawing -----------------------------------------------------------------------

// Where a hole's score came from, as the kiosk's hole card says it (KioskCore/DeviceNames.swift):
// "from Nate's phone" for this phone's own scores, and the name every other device's score
// carries in the event itself ("from Clubhouse kiosk"). The latest leaf that holds the value
// speaks for the cell.
function attribution(cell) {
  const holders = (cell?.leaves ?? []).filter((l) => l.strokes === cell.value);
  if (holders.length === 0) return null;
  const latest = holders.reduce((a, b) => (b.createdAt > a.createdAt ? b : a));
  const device = latest.deviceID === creds.deviceID ? `${creds.name}'s phone` : latest.deviceName;
  if (latest.input === "voice") return device ? `by voice, ${device}` : "by voice";
  return device ? `from ${device}` : null;
}

const toParClass = (v) => "to-par mono" + (v < 0 ? " under" : v > 0 ? " over" : "");

function activeRounds() {
  return [...state.rounds.values()]
    .filter((r) => r.status === "active" || r.status === "awaitingFinalization")
    .sort((a, b) => (b.startedAt ?? b.createdAt) - (a.startedAt ?? a.createdAt));
}

// What the screen depends on, to redraw only when it changed: a sync every 3 s that
// brings nothing must not rebuild the card under a finger about to tap it.
let drawn = "";
function signature() {
  const events = [...state.events.values()].reduce((n, list) => n + list.length, 0);
  const rounds = [...state.rounds.values()].map((r) => r.version).join();
  return JSON.stringify([events, rounds, state.courses.size, state.outbox, state.round, state.hole, state.picker, state.expanded, state.sync]);
}

// `justSaved`: the participants whose score was saved just now (their rows flash).
function render(justSaved = null) {
  const now = signature();
  if (now === drawn && justSaved === null) return;
  drawn = now;
  document.getElementById("group").textContent = creds?.groupName ?? "";
  const pending = state.outbox > 0 ? ` · ${state.outbox} waiting to send` : "";
  syncLine.textContent = state.sync.text + (state.sync.kind === "refused" ? "" : pending);
  syncLine.className = `sync ${state.sync.kind === "live" && state.outbox > 0 ? "waiting" : state.sync.kind}`;
  if (!creds) {
    app.replaceChildren(el("p", { class: "empty" }, "This phone is not in a group yet. On the kiosk: Menu → Add a phone, and scan the code."));
    return;
  }
  const rounds = activeRounds();
  const round = rounds.find((r) => r.id === state.round) ?? rounds[0];
  const course = round && state.courses.get(round.courseID);
  if (!round || !course) {
    app.replaceChildren(el("p", { class: "empty" }, "No round in play. Start one at the kiosk; it shows up here."));
    return;
  }
  const pars = round.pars ?? course.pars;
  const cells = scorecard(state.events.get(round.id) ?? []);
  const rows = standings(round, pars, cells);
  // A shotgun card (issue 36) plays from its start hole round the course.
  const order = holeOrder(round.startHole ?? 1, pars.length);
  if (state.hole === null || !order.includes(state.hole)) {
    // The first hole, in the card's order, someone has no score on: where the group most likely is.
    const open = order.find((h) => round.participants.some((p) => cells.get(cellKey(p.id, h))?.value == null));
    state.hole = open ?? order[order.length - 1];
  }
  const hole = state.hole;
  const at = order.indexOf(hole);
  const disputed = [...cells.values()].filter((c) => c.disputed).length;

  const pill = el(
    "button",
    { class: "pill", id: "pill", "aria-expanded": String(state.expanded), onclick: () => ((state.expanded = !state.expanded), render()) },
    ...rows.slice(0, 6).map((r) => el("span", { class: "entry" }, `${r.label}.${r.name} `, el("span", { class: toParClass(r.toPar) }, toPar(r.toPar)))),
  );
  const board = state.expanded
    ? el("ol", { class: "board", id: "board" }, ...rows.map((r) => el("li", {},
        el("span", { class: "position mono" }, r.label),
        el("span", { class: "name" }, r.name),
        el("span", { class: "progress" }, r.progress),
        el("span", { class: toParClass(r.toPar) }, toPar(r.toPar)))))
    : null;
  const badge = disputed > 0 ? el("p", { class: "badge", id: "badge" }, `${disputed} to check`) : null;

  const nav = el("div", { class: "hole" },
    el("button", { "aria-label": "previous hole", disabled: at <= 0 ? "" : null, onclick: () => ((state.hole = order[at - 1]), (state.picker = null), render()) }, "‹"),
    el("h1", { id: "hole" }, `Hole ${hole} `, el("span", { class: "par" }, `Par ${pars[hole - 1]}`)),
    el("button", { "aria-label": "next hole", disabled: at >= order.length - 1 ? "" : null, onclick: () => ((state.hole = order[at + 1]), (state.picker = null), render()) }, "›"));

  const card = el("ul", { class: "card", id: "card" }, ...round.participants.map((p) => {
    const cell = cells.get(cellKey(p.id, hole));
    const value = cell?.value ?? null;
    const open = state.picker?.participant === p.id;
    const item = el("li", { class: "player" + (justSaved?.includes(p.id) ? " saved" : ""), "data-participant": p.id },
      el("button", { class: "row", onclick: () => ((state.picker = open ? null : { participant: p.id, strokes: value ?? pars[hole - 1] }), render()) },
        el("span", { class: "name" }, p.name, p.kind === "guest" ? el("span", { class: "guest" }, "guest") : null),
        el("span", { class: "value mono" + (value == null ? " none" : "") + (cell?.disputed ? " disputed" : "") }, value == null ? "–" : String(value))));
    const from = attribution(cell);
    if (from) item.append(el("p", { class: "by" }, from));
    if (open) {
      const picked = state.picker.strokes;
      item.append(el("div", { class: "picker" },
        el("button", { class: "minus", "aria-label": "one stroke less", onclick: () => ((state.picker.strokes = Math.max(1, picked - 1)), render()) }, "−"),
        el("span", { class: "strokes mono" }, String(picked)),
        el("button", { class: "plus", "aria-label": "one stroke more", onclick: () => ((state.picker.strokes = Math.min(10, picked + 1)), render()) }, "+"),
        el("div", { class: "actions" },
          el("button", { class: "cancel", onclick: () => ((state.picker = null), render()) }, "Cancel"),
          el("button", { class: "primary save", onclick: () => { state.picker = null; save(round, p.id, hole, picked); } }, "Save"))));
    }
    return item;
  }));
  const pickRound = rounds.length > 1
    ? el("p", { class: "course" }, ...rounds.map((r) => el("button", {
        class: r.id === round.id ? "primary" : "",
        onclick: () => ((state.round = r.id), localStorage.setItem("hyzer.phone.round", r.id), (state.hole = null), render()),
      }, state.courses.get(r.courseID)?.name ?? "round")))
    : el("p", { class: "course" }, course.name);
  // Voice (issue 38): a button under the hole, or one line saying why there is none.
  const speak = voice.available
    ? el("button", { class: "speak", id: "speak", "aria-label": `say the scores for hole ${hole}`, onclick: () => startVoice({
        hole, par: pars[hole - 1],
        players: round.participants.map((p) => ({ id: p.id, name: p.name, aliases: state.players.get(p.id.toLowerCase())?.aliases ?? [] })),
        commit: (scores) => saveScores(round, hole, scores, "voice"),
      }) }, micIcon(), "Say the scores")
    : el("p", { class: "note", id: "voice-note", role: "note" }, voice.why);
  app.replaceChildren(...[pill, board, badge, pickRound, nav, speak, card].filter((n) => n !== null));
}

// A microphone, drawn (an emoji is a box where the phone's fonts lack it).
function micIcon() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = '<rect x="9" y="3" width="6" height="11" rx="3" fill="currentColor"/>' +
    '<path d="M6 11a6 6 0 0 0 12 0M12 17v4M9 21h6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
  return svg;
}

// ---- Start -------------------------------------------------------------------------

// The page opens again with no signal only through its service worker, and browsers run
// service workers only in secure contexts: https, or localhost while developing. Over the
// clubhouse LAN's plain http the scorecard still works offline while the tab stays open
// (the outbox is IndexedDB, which every context has), and it says so rather than fail
// silently on the next reload (docs/phones.md).
if (window.isSecureContext && "serviceWorker" in navigator) {
  navigator.serviceWorker.register("/phone/sw.js").catch(() => {});
} else {
  document.getElementById("offline-note").hidden = false;
}
await load();
state.sync = { kind: "waiting", text: navigator.onLine ? "connecting…" : "offline" };
render();
if (creds) {
  sync();
  // The same cadence as a device without its live socket: a look every 3 s while the page
  // is in front, and at once when the network comes back.
  setInterval(() => document.visibilityState === "visible" && sync(), 3000);
  window.addEventListener("online", () => sync());
}
