// Voice scoring on the phone's hole card (issue 38; the seeds' FR21–FR29): the browser's own
// speech recognition (the Web Speech API) hears "Mike 3, Jake 4", the page parses it itself
// (voice.js, the JavaScript twin of HyzerKit's VoiceParser, held to the same cases), and the
// confirmation overlay shows what it made of it. It saves by itself 1.5 s later unless
// touched (FR25, the seeds' aligned value); a tap on an entry corrects it and starts the
// 1.5 s again (FR26); a fragment it could not match is marked "?" and a tap gives it a player
// (FR27); a failed hearing offers Retry and Cancel (FR28). Only what was said is saved (FR29).
//
// The saved scores are ordinary score events of this phone, marked `input: "voice"`: every
// device credits them "by voice, Nate's phone". Parsing is local, so a score spoken with no
// signal (and an on-device recognizer) still lands in the outbox.
//
// Where the browser has no recognizer (Firefox), or the page is not a secure context (plain
// http: browsers give no microphone there), there is no button, and one line says why.

import { parseVoice } from "/web/voice.js";
import { el } from "/web/dom.js";

// The seeds' auto-commit: 1.5 s, from the overlay's appearance and again from each correction.
export const AUTO_COMMIT_MS = 1500;

const Recognition = globalThis.SpeechRecognition ?? globalThis.webkitSpeechRecognition;

// Whether this page can listen, and if not, the one line that says why.
export function voiceSupport() {
  if (!Recognition) {
    return { available: false, why: "Voice scoring needs a browser with speech recognition (Chrome or Safari): score by tapping a name." };
  }
  if (!window.isSecureContext) {
    return { available: false, why: "Voice scoring needs the https address (browsers give no microphone over plain http): score by tapping a name." };
  }
  return { available: true, why: null };
}

// Whether the browser will recognize on this phone (Chrome's `processLocally`), asked once.
let localAnswer = null;
function onDevice(lang) {
  if (localAnswer) return localAnswer;
  localAnswer = (async () => {
    if (typeof Recognition?.available !== "function") return false;
    try {
      return (await Recognition.available({ langs: [lang], processLocally: true })) === "available";
    } catch {
      return false;
    }
  })();
  return localAnswer;
}

// What the tests and the benchmark read: when each final result came and when its overlay
// showed (performance.now(), ms), and what each commit saved.
const timings = (globalThis.hyzerVoice = { timings: [], commits: [] });

// One voice session at a time: listening, then confirming (or failed), then gone.
let session = null;

// Starts listening for the hole on screen. `context` gives the round's players
// ([{id, name, aliases}]), the hole and its par, and `commit(entries)`, which saves
// [{participantID, strokes}] as this phone's voice scores.
export async function startVoice(context) {
  if (session) return;
  // The phone's own language: its recognizer knows how its owner says names and numbers.
  const lang = navigator.language || "en-US";
  // Taken at once, before the question below is answered: a second tap meanwhile starts nothing.
  const s = (session = { context, lang, local: false, phase: "starting", interim: "", heard: "", entries: [], unresolved: [], editing: null, picking: null, timer: null, due: 0, paused: false });
  s.local = await onDevice(lang);
  if (session !== s) return;
  listen();
}

function listen() {
  const s = session;
  const rec = new Recognition();
  rec.lang = s.lang;
  rec.interimResults = true;
  rec.continuous = false;
  rec.maxAlternatives = 1;
  if (s.local && "processLocally" in rec) rec.processLocally = true;
  s.rec = rec;
  s.phase = "listening";
  s.interim = "";
  s.final = false;
  rec.onresult = (event) => {
    if (session !== s || s.phase !== "listening") return;
    // Every result so far, in order (a recognizer may split one sentence into several).
    const parts = [];
    let final = true;
    for (let i = 0; i < event.results.length; i++) {
      parts.push(event.results[i][0].transcript);
      if (!event.results[i].isFinal) final = false;
    }
    const text = parts.join(" ").replace(/\s+/g, " ");
    if (!final) {
      s.interim = text;
      draw();
      return;
    }
    s.final = true;
    heard(text.trim(), performance.now());
  };
  rec.onnomatch = () => session === s && s.phase === "listening" && failed("Couldn't understand that.");
  rec.onerror = (event) => {
    if (session !== s || s.phase !== "listening") return;
    const why = {
      "no-speech": "Heard nothing.",
      "audio-capture": "No microphone answered.",
      "not-allowed": "The microphone is not allowed for this page: allow it in the browser's site settings.",
      "service-not-allowed": "This browser's speech service is turned off.",
      network: "The speech service could not be reached (no signal?).",
      "language-not-supported": `Speech in ${s.lang} is not offered here.`,
    }[event.error];
    failed(why ?? `Recognition failed (${event.error}).`);
  };
  rec.onend = () => {
    if (session === s && s.phase === "listening" && !s.final) failed("Heard nothing.");
  };
  try {
    rec.start();
  } catch (error) {
    failed(`Recognition could not start (${error.message}).`);
    return;
  }
  draw();
}

// A final transcript: parsed at once, and the overlay shows what it made of it (NFR7).
function heard(transcript, at) {
  const s = session;
  const { players, par } = s.context;
  const result = parseVoice(transcript, players, par);
  s.heard = transcript;
  if (result.kind === "failed") {
    failed("Couldn't understand that.");
    timings.timings.push({ final: at, overlay: performance.now(), kind: result.kind });
    return;
  }
  const byID = new Map(players.map((p) => [p.id.toLowerCase(), p]));
  s.entries = result.scores.map((score) => ({
    participantID: score.participantID, name: byID.get(score.participantID.toLowerCase())?.name ?? score.heard, strokes: score.strokes,
  }));
  s.unresolved = result.unresolved.map((text) => ({ text, strokes: strokesIn(text, par) }));
  s.phase = "confirm";
  armTimer();
  draw();
  timings.timings.push({ final: at, overlay: performance.now(), kind: result.kind });
}

// The strokes a fragment the parser could not place still says ("Bartholomew 4" → 4), else par.
function strokesIn(text, par) {
  const n = Number((text.match(/\b(10|[1-9])\b/) ?? [])[1]);
  return Number.isFinite(n) && n >= 1 ? n : par ?? 3;
}

function failed(message) {
  const s = session;
  if (!s) return;
  clearTimer();
  // The phase first: the recognizer's own "aborted" error and end are then not news.
  s.phase = "failed";
  s.message = message;
  stopListening(s);
  draw();
}

function stopListening(s) {
  try {
    s.rec?.abort();
  } catch {
    // already ended
  }
}

function armTimer() {
  const s = session;
  clearTimer();
  s.due = performance.now() + AUTO_COMMIT_MS;
  if (!s.paused) s.timer = setTimeout(() => commit(), AUTO_COMMIT_MS);
}

function clearTimer() {
  if (session?.timer) clearTimeout(session.timer);
  if (session) session.timer = null;
}

// Any touch of the overlay's entries starts the 1.5 s again (FR25, FR26).
function touched() {
  armTimer();
  draw();
}

async function commit() {
  const s = session;
  if (!s || s.phase !== "confirm") return;
  clearTimer();
  const entries = s.entries.map(({ participantID, strokes }) => ({ participantID, strokes }));
  s.phase = "saving";
  close();
  if (entries.length > 0) {
    timings.commits.push({ at: performance.now(), entries });
    await s.context.commit(entries);
  }
}

// Nothing is saved: the hole card is as it was before the button (the seeds' FR28).
function cancel() {
  const s = session;
  if (!s) return;
  clearTimer();
  close();
  stopListening(s);
}

function retry() {
  clearTimer();
  session.entries = [];
  session.unresolved = [];
  session.editing = null;
  session.picking = null;
  listen();
}

function close() {
  session = null;
  document.getElementById("voice")?.remove();
}

// ---- Drawing -----------------------------------------------------------------------

function draw() {
  const s = session;
  if (!s) return;
  const where = s.local ? "Heard on this phone" : "Speech goes to the browser's speech service";
  let body;
  if (s.phase === "listening") {
    const names = s.context.players.slice(0, 2).map((p) => p.name.split(" ")[0]);
    body = [
      el("h2", {}, "Listening…"),
      el("p", { class: "voice-hint" }, `Say “${names.map((n, i) => `${n} ${i + 3}`).join(", ")}” for hole ${s.context.hole}`),
      el("p", { class: "voice-heard", id: "voice-interim", "aria-live": "polite" }, s.interim || "\u00a0"),
      el("p", { class: "voice-where" }, where),
      el("div", { class: "voice-actions" }, el("button", { id: "voice-cancel", onclick: cancel }, "Cancel")),
    ];
  } else if (s.phase === "failed") {
    body = [
      el("h2", {}, s.message),
      s.heard ? el("p", { class: "voice-heard" }, `Heard “${s.heard}”`) : null,
      el("p", { class: "voice-hint" }, "Try again, or cancel and tap the scores in."),
      el("div", { class: "voice-actions" },
        el("button", { id: "voice-cancel", onclick: cancel }, "Cancel"),
        el("button", { class: "primary", id: "voice-retry", onclick: retry }, "Try again")),
    ];
  } else {
    body = confirmBody(s, where);
  }
  // `data-due`: when it saves itself (performance.now(), ms), for a test to read.
  const overlay = el("div", { class: "voice", id: "voice", role: "dialog", "aria-modal": "true", "aria-label": "Voice scores", "data-phase": s.phase,
    "data-due": s.phase === "confirm" && s.timer ? String(Math.round(s.due)) : null },
    el("div", { class: "voice-panel" }, ...body));
  // Pauses the timer while a screen reader or keyboard is on an entry (the seeds' VoiceOver
  // rule); a finger's tap is not focus-visible, and restarts it instead (`touched`).
  overlay.addEventListener("focusin", (event) => {
    if (s.phase === "confirm" && event.target.closest(".voice-entries") && event.target.matches(":focus-visible")) {
      s.paused = true;
      clearTimer();
    }
  });
  overlay.addEventListener("focusout", (event) => {
    if (s.phase === "confirm" && s.paused && !overlay.contains(event.relatedTarget)) {
      s.paused = false;
      armTimer();
    }
  });
  const old = document.getElementById("voice");
  const focused = document.activeElement?.id;
  if (old) old.replaceWith(overlay);
  else document.body.append(overlay);
  // Keep focus where it was across a redraw (a screen reader's place); a new phase starts on
  // its main button (Save, Try again), never on Cancel, where a stray Enter would lose them.
  const keep = focused && document.getElementById(focused);
  (keep || overlay.querySelector(".primary") || overlay.querySelector("button"))?.focus({ preventScroll: true });
}

function confirmBody(s, where) {
  const { hole, par, players } = s.context;
  const entries = s.entries.map((entry, index) => {
    const editing = s.editing === index;
    const row = el("li", { class: "voice-entry" + (editing ? " editing" : "") },
      el("button", { class: "voice-row", id: `voice-entry-${index}`, "aria-label": `${entry.name} ${entry.strokes}, tap to correct`,
        onclick: () => { s.editing = editing ? null : index; s.picking = null; touched(); } },
        el("span", { class: "name" }, entry.name),
        el("span", { class: "value mono" }, String(entry.strokes))));
    if (editing) {
      row.append(el("div", { class: "picker" },
        el("button", { class: "minus", id: `voice-minus-${index}`, "aria-label": "one stroke less", onclick: () => { entry.strokes = Math.max(1, entry.strokes - 1); touched(); } }, "−"),
        el("span", { class: "strokes mono" }, String(entry.strokes)),
        el("button", { class: "plus", id: `voice-plus-${index}`, "aria-label": "one stroke more", onclick: () => { entry.strokes = Math.min(10, entry.strokes + 1); touched(); } }, "+")));
    }
    return row;
  });
  const named = new Set(s.entries.map((e) => e.participantID.toLowerCase()));
  const unresolved = s.unresolved.map((fragment, index) => {
    const picking = s.picking === index;
    const row = el("li", { class: "voice-entry unresolved" },
      el("button", { class: "voice-row", id: `voice-unresolved-${index}`, "aria-label": `not matched: ${fragment.text}, tap to choose the player`,
        onclick: () => { s.picking = picking ? null : index; s.editing = null; touched(); } },
        el("span", { class: "name" }, el("span", { class: "mark" }, "?"), ` “${fragment.text}”`),
        el("span", { class: "value mono" }, String(fragment.strokes))));
    if (picking) {
      row.append(el("div", { class: "voice-choose" }, ...players.filter((p) => !named.has(p.id.toLowerCase())).map((p) =>
        el("button", { class: "voice-player", "data-player": p.id, onclick: () => {
          s.entries.push({ participantID: p.id, name: p.name, strokes: fragment.strokes });
          s.unresolved.splice(index, 1);
          s.picking = null;
          s.editing = s.entries.length - 1;
          touched();
        } }, p.name))));
    }
    return row;
  });
  const said = s.entries.map((e) => `${e.name} ${e.strokes}`).join(", ");
  const missed = s.unresolved.length ? ` ${s.unresolved.length} not matched.` : "";
  return [
    el("h2", {}, `Hole ${hole}`, el("span", { class: "par" }, ` Par ${par}`)),
    el("p", { class: "voice-heard" }, `Heard “${s.heard}”`),
    el("p", { class: "sr-only", "aria-live": "assertive" }, `${said || "No scores"}.${missed} Saving in 1.5 seconds unless you correct one.`),
    el("ul", { class: "voice-entries", id: "voice-entries" }, ...entries, ...unresolved),
    // Restarted with each correction: the bar runs out as the scores save.
    el("div", { class: "voice-timer" + (s.paused ? " paused" : ""), "aria-hidden": "true" },
      el("span", { style: `animation-duration: ${AUTO_COMMIT_MS}ms` })),
    el("p", { class: "voice-where" }, where),
    el("div", { class: "voice-actions" },
      el("button", { id: "voice-cancel", onclick: cancel }, "Cancel"),
      el("button", { id: "voice-retry", onclick: retry }, "Retry"),
      el("button", { class: "primary", id: "voice-save", onclick: () => commit() }, s.entries.length ? `Save ${s.entries.length}` : "Close")),
  ];
}
