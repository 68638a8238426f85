// Runs every case of cases.json (beside this file) through assets/web/voice.js and prints one
// JSON line per case with what the JavaScript parser got: {name, kind, scores, unresolved}.
// VoiceFixtureTests compares each line to the case's expectation, as it does the Swift
// parser's result, so the phone's parser and HyzerKit's are held to one set of cases.
//
// voice.js is imported from a data: URL of its source, as the phone could load it: that works
// on Debian 12's Node 18 and on newer Node alike, with no package.json or loader flags for a
// file outside a package.
//
//   node Tests/Fixtures/voice/run-js.mjs [cases.json] [voice.js]

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const fixture = process.argv[2] ?? join(here, "cases.json");
const parser = process.argv[3] ?? join(here, "..", "..", "..", "assets", "web", "voice.js");

const source = readFileSync(parser);
const { parseVoice } = await import(`data:text/javascript;base64,${source.toString("base64")}`);
const { rosters, cases } = JSON.parse(readFileSync(fixture, "utf8"));

for (const c of cases) {
  const roster = rosters[c.roster];
  if (roster === undefined) throw new Error(`case "${c.name}": no roster "${c.roster}"`);
  const got = parseVoice(c.transcript, roster, c.par);
  process.stdout.write(`${JSON.stringify({ name: c.name, ...got })}\n`);
}
