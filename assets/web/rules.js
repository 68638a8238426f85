// The scoring rules, for a phone that scores offline: the same as HyzerKit's Scorecard and
// StandingsEngine (docs/scenario-format.md), ported line for line so that a phone on a hole
// with no signal shows what every device will show once it syncs. Tests/Browser/phone.py
// checks the phone's standings against the kiosk's store (`hyzer standings`).

// UUIDs compare by their bytes, as `UUID.precedes` does: the hex digits, case folded.
export const precedes = (a, b) => a.toLowerCase() < b.toLowerCase();

// One cell's value and whether it is disputed (CellResolution.resolve). A retraction (the
// kiosk's "Undo", issue 35) withdraws the events it names: the cell resolves from the rest.
// `supersedable` is what a new score here supersedes: the leaves and any current retraction.
export function resolveCell(events) {
  const retractions = events.filter((e) => e.retraction === true);
  if (retractions.length === 0) return { ...resolveStatements(events), retractions: [] };
  const withdrawn = new Set(retractions.flatMap((e) => e.supersedes));
  const superseded = new Set(events.flatMap((e) => e.supersedes));
  const current = retractions.filter((r) => !superseded.has(r.id));
  return { ...resolveStatements(events.filter((e) => e.retraction !== true && !withdrawn.has(e.id))), retractions: current };
}

export const supersedable = (cell) => (cell ? [...cell.leaves, ...cell.retractions].map((l) => l.id) : []);

// A resolution, or a correction of a finished round, is authoritative.
const authoritative = (e) => e.isResolution || (e.correction ?? null) !== null;

function resolveStatements(events) {
  if (events.length === 0) return { value: null, leaves: [], disputed: false };
  if (events.length === 1) return { value: events[0].strokes, leaves: events, disputed: false };
  const byID = new Map(events.map((e) => [e.id, e]));
  const superseded = new Set(events.flatMap((e) => e.supersedes));
  let leaves = [...byID.values()].filter((e) => !superseded.has(e.id));
  if (leaves.length === 0) leaves = [...byID.values()]; // a supersession cycle: show it all
  let disputed = new Set(leaves.map((l) => l.strokes)).size > 1;
  for (const leaf of leaves) {
    if (authoritative(leaf)) continue;
    for (const target of leaf.supersedes.map((id) => byID.get(id))) {
      if (target && target.deviceID !== leaf.deviceID && target.strokes !== leaf.strokes) disputed = true;
    }
  }
  const resolutions = leaves.filter(authoritative);
  const votes = new Map();
  for (const leaf of resolutions.length > 0 ? resolutions : leaves) votes.set(leaf.strokes, (votes.get(leaf.strokes) ?? 0) + 1);
  // The most votes; a tie goes to the lower value.
  let value = null;
  let most = 0;
  for (const [strokes, count] of votes) {
    if (count > most || (count === most && strokes < value)) [value, most] = [strokes, count];
  }
  return { value, leaves, disputed };
}

// Every cell of a round: Map "participant|hole" -> resolution.
export function scorecard(events) {
  const cells = new Map();
  for (const e of events) {
    const key = `${e.participantID.toUpperCase()}|${e.hole}`;
    if (!cells.has(key)) cells.set(key, []);
    cells.get(key).push(e);
  }
  const resolved = new Map();
  for (const [key, list] of cells) resolved.set(key, resolveCell(list));
  return resolved;
}

// The holes in the order a card plays them: from its start hole round the course (HoleOrder).
export const holeOrder = (start, count) => Array.from({ length: count }, (_, i) => ((start - 1 + i) % count) + 1);

export const cellKey = (participantID, hole) => `${participantID.toUpperCase()}|${hole}`;

// "E", "+2", "-1" (ScoreFormat.toPar).
export const toPar = (v) => (v === 0 ? "E" : v > 0 ? `+${v}` : `${v}`);

// Ranked rows (StandingsEngine.standings): competition ranking, ties shown "T2", DNF last.
export function standings(round, pars, cells) {
  const finished = round.status === "completed";
  const ranked = [];
  const dnf = [];
  for (const p of round.participants) {
    let total = 0;
    let strokes = 0;
    let thru = 0;
    pars.forEach((par, i) => {
      const value = cells.get(cellKey(p.id, i + 1))?.value;
      if (value == null) return;
      total += value - par;
      strokes += value;
      thru += 1;
    });
    const status = thru === pars.length ? "finished" : finished ? "dnf" : "playing";
    const row = { id: p.id, name: p.name, guest: p.kind === "guest", toPar: total, strokes, thru, status, position: null, tied: false };
    (status === "dnf" ? dnf : ranked).push(row);
  }
  const order = (a, b) => {
    if (a.toPar !== b.toPar) return a.toPar - b.toPar;
    if (a.thru !== b.thru) return b.thru - a.thru;
    const an = a.name.toLowerCase();
    const bn = b.name.toLowerCase();
    if (an !== bn) return an < bn ? -1 : 1;
    return precedes(a.id, b.id) ? -1 : 1;
  };
  ranked.sort(order);
  dnf.sort(order);
  for (let i = 0; i < ranked.length; ) {
    let end = i;
    while (end + 1 < ranked.length && ranked[end + 1].toPar === ranked[i].toPar) end += 1;
    for (let k = i; k <= end; k += 1) Object.assign(ranked[k], { position: i + 1, tied: end > i });
    i = end + 1;
  }
  return [...ranked, ...dnf].map((r) => ({
    ...r,
    label: r.position == null ? "–" : `${r.tied ? "T" : ""}${r.position}`,
    progress: r.status === "finished" ? "F" : r.status === "dnf" ? "DNF" : `thru ${r.thru}`,
  }));
}
