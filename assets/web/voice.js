// The voice micro-language, for a phone that parses its own microphone offline: "Mike 3, jake
// four, Sarah birdie". It mirrors HyzerKit/VoiceParser.swift line for line (that file's doc
// comment is the language's description) so that what the phone hears is what `hyzer voice`
// hears. Tests/Fixtures/voice/cases.json holds the two together: VoiceFixtureTests runs every
// case through both, so a rule changed in one and not the other fails a test.
//
// Self-contained, with no imports, so a test can load it from a data: URL.
//
// Text is compared as code points of its lowercased NFC form, which is what the Swift parser
// compares (Unicode scalars, not characters). The two lowercase and compose every code point
// alike; what counts as a letter differs only for scripts Unicode added after the tables of
// Swift's Foundation (a newer Node knows more), which no recognizer writes names in.

// parseVoice("Mike 3, Jake birdie", [{id, name, aliases}], 4) ->
//   {kind: "success" | "partial" | "failed", scores: [{participantID, heard, strokes}], unresolved: [string]}
// `par` is the par of the hole being scored, when known (a number, or null).
export function parseVoice(transcript, candidates, par) {
  const tokens = tokenize(transcript);
  const scores = [];
  const unresolved = [];
  let pendingName = [];
  let index = 0;

  const flushName = () => {
    if (pendingName.length > 0) unresolved.push(pendingName.join(" "));
    pendingName = [];
  };

  while (index < tokens.length) {
    const term = classifyTerm(tokens, index, pendingName.length > 0);
    index += term.length;
    let strokes;
    switch (term.kind) {
      case "filler":
        continue;
      case "word":
        pendingName.push(term.text);
        continue;
      case "number":
        strokes = term.value;
        break;
      case "toPar":
        strokes = typeof par === "number" ? par + term.value : null;
        break;
    }
    if (pendingName.length === 0) {
      unresolved.push(term.text);
      continue;
    }
    const heard = pendingName.join(" ");
    pendingName = [];
    if (strokes === null || !(strokes >= MIN_STROKES && strokes <= MAX_STROKES)) {
      unresolved.push(`${heard} ${term.text}`);
      continue;
    }
    const match = matchName(heard, candidates);
    if (match === null) {
      unresolved.push(`${heard} ${term.text}`);
      continue;
    }
    // A name said twice ("Mike 3 no Mike 4") keeps the last value.
    const earlier = scores.findIndex((s) => s.participantID === match.id);
    if (earlier >= 0) scores.splice(earlier, 1);
    scores.push({ participantID: match.id, heard, strokes });
  }
  flushName();

  if (scores.length === 0) return { kind: "failed", scores: [], unresolved };
  return { kind: unresolved.length === 0 ? "success" : "partial", scores, unresolved };
}

// ScoreEvent.allowedStrokes.
const MIN_STROKES = 1;
const MAX_STROKES = 10;

// MARK: Tokenize

// CharacterSet.letters (categories L and M) and CharacterSet.decimalDigits (Nd).
const LETTER_OR_DIGIT = /^[\p{L}\p{M}\p{Nd}]$/u;

// Lowercased words of letters and digits. An apostrophe (straight or curly, as dictation
// writes "O’Neil") joins a word and is then dropped, with a possessive "'s" at its end
// ("Mike's 3"); inside a name it is only dropped ("O'Sullivan" is "osullivan").
// Lowercased code point by code point, as Swift's lowercased() does: String's toLowerCase
// would make a final sigma "ς" where Swift keeps "σ".
function tokenize(transcript) {
  const words = [];
  let word = "";
  const endWord = () => {
    if (word.endsWith("'s")) word = word.slice(0, -2);
    word = word.replaceAll("'", "");
    if (word !== "") words.push(word);
    word = "";
  };
  const lowered = Array.from(String(transcript), (c) => c.toLowerCase()).join("");
  for (const scalar of lowered.normalize("NFC")) {
    if (scalar === "'" || scalar === "\u2019") {
      word += "'";
    } else if (LETTER_OR_DIGIT.test(scalar)) {
      word += scalar;
    } else {
      endWord();
    }
  }
  endWord();
  return words;
}

// MARK: Classify

const numberWords = new Map([
  ["zero", 0], ["one", 1], ["two", 2], ["three", 3], ["four", 4], ["five", 5],
  ["six", 6], ["seven", 7], ["eight", 8], ["nine", 9], ["ten", 10],
  ["ace", 1], ["eleven", 11], ["twelve", 12],
]);
// Recognizers mishear numbers as these words; they count only right after a name.
const homophones = new Map([
  ["won", 1], ["to", 2], ["too", 2], ["tree", 3], ["for", 4], ["fore", 4], ["ate", 8], ["oh", 0],
]);
// What golfers say instead of a number: strokes relative to the hole's par.
const parWords = new Map([
  ["par", 0], ["birdie", -1], ["eagle", -2], ["albatross", -3], ["bogey", 1], ["bogie", 1],
  ["double", 2], ["triple", 3], ["quad", 4], ["quadruple", 4],
]);
// "Double bogey" is one term: these words may be followed by a "bogey" that adds nothing.
const bogeyMultiples = new Set(["double", "triple", "quad", "quadruple"]);
const bogeys = new Set(["bogey", "bogie"]);
const fillers = new Set([
  "and", "a", "an", "got", "gets", "had", "has", "shot", "scored", "score", "with", "is", "was",
  "then", "on", "the", "hole", "made", "took", "card", "carded",
  // Spoken self-corrections: "Mike 3, no, Mike 4", "sorry, actually make that".
  "no", "sorry", "actually", "wait", "make", "that", "it", "i", "mean",
]);

// The term starting at tokens[index]: a phrase when one starts there, else the token.
// {text, length, kind: "number" | "toPar" | "word" | "filler", value}
function classifyTerm(tokens, index, afterName) {
  const token = tokens[index];
  const next = tokens[index + 1];
  if (token === "hole" && next === "in" && tokens[index + 2] === "one") {
    return { text: "hole in one", length: 3, kind: "number", value: 1 };
  }
  if (bogeyMultiples.has(token) && next !== undefined && bogeys.has(next)) {
    return { text: `${token} ${next}`, length: 2, kind: "toPar", value: parWords.get(token) };
  }
  return { text: token, length: 1, ...classify(token, afterName) };
}

function classify(token, afterName) {
  // Any run of ASCII digits is a number; one too long to be exact is out of range anyway.
  if (/^[0-9]+$/.test(token)) return { kind: "number", value: Number(token) };
  if (numberWords.has(token)) return { kind: "number", value: numberWords.get(token) };
  if (parWords.has(token)) return { kind: "toPar", value: parWords.get(token) };
  if (afterName && homophones.has(token)) return { kind: "number", value: homophones.get(token) };
  if (fillers.has(token) || homophones.has(token)) return { kind: "filler" };
  return { kind: "word" };
}

// MARK: Names (FuzzyNameMatcher)

// Matches a spoken fragment to exactly one participant, or to none (null).
function matchName(heard, candidates) {
  const spoken = normalize(heard);
  if (spoken === "") return null;

  // 1. The alias map: a player's own list of what recognizers hear for them.
  const byAlias = candidates.filter((c) => aliasesOf(c).some((a) => normalize(a) === spoken));
  if (byAlias.length === 1) return byAlias[0];
  if (byAlias.length > 1) return null;

  // 2. The exact full or first name.
  const exact = candidates.filter((c) => namesOf(c).includes(spoken));
  if (exact.length === 1) return exact[0];
  if (exact.length > 1) return null;

  // 3. Edit distance on spelling or sound, within a threshold that grows with length.
  const spokenKey = phoneticKey(spoken);
  const close = candidates.filter((candidate) =>
    namesOf(candidate).some(
      (name) =>
        levenshtein(spoken, name) <= threshold(name) ||
        (spokenKey !== "" && levenshtein(spokenKey, phoneticKey(name)) === 0),
    ),
  );
  return close.length === 1 ? close[0] : null;
}

const aliasesOf = (candidate) => candidate.aliases ?? [];

// At most one edit for short names, about a third of the letters for long ones.
const threshold = (name) => Math.max(1, Math.floor(Array.from(name).length / 3));

function namesOf(candidate) {
  const full = normalize(candidate.name);
  const result = [full];
  const first = full.split(" ").filter((w) => w !== "")[0];
  if (first !== undefined && first !== full) result.push(first);
  result.push(...aliasesOf(candidate).map(normalize));
  return result;
}

const normalize = (text) => tokenize(text).join(" ");

// A rough English sound key: similar-sounding spellings collapse to one key
// ("Jake"/"Jayk", "Phil"/"Fil", "Katie"/"Caty").
function phoneticKey(text) {
  let s = text.replaceAll(" ", "");
  for (const [from, to] of [
    ["ph", "f"], ["ck", "k"], ["gh", "g"], ["kn", "n"], ["wr", "r"], ["c", "k"],
    ["q", "k"], ["z", "s"], ["x", "ks"], ["y", "i"], ["ee", "i"], ["ie", "i"],
  ]) {
    s = s.replaceAll(from, to);
  }
  const scalars = Array.from(s);
  if (scalars.length === 0) return "";
  const key = [scalars[0]];
  for (const scalar of scalars.slice(1)) {
    if (!"aeiouhw".includes(scalar) && key[key.length - 1] !== scalar) key.push(scalar);
  }
  return key.join("");
}

// Classic two-row Levenshtein distance over code points (Swift's Unicode scalars).
function levenshtein(a, b) {
  a = Array.from(a);
  b = Array.from(b);
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}
