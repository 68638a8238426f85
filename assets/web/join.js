// /join/CODE: redeems the kiosk's invite for this phone's own device token, keeps it in
// the browser (localStorage, this origin only), and opens the scorecard. The code works
// once and for ten minutes; the server says which, if not.
//
// Which player am I? The invite also lists the group's registered players: tapping one
// ("I am Nate") claims that player for this phone, so the kiosk credits the phone's scores
// to the person, not only to the phone. A player another phone has claimed is shown taken;
// "Someone else" is a plain name.

import { uuid } from "/web/ids.js";

const code = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const form = document.getElementById("join");
const nameInput = document.getElementById("name");
const message = document.getElementById("message");
const playersList = document.getElementById("players");

const saved = JSON.parse(localStorage.getItem("hyzer.phone") ?? "null");
if (saved?.name) nameInput.value = saved.name;

let claimed = null; // the player id this phone claims, if one was tapped

// `player` tapped (its `button` lit), or nobody in particular (no button lit for a name
// typed by hand).
function choose(player, button) {
  claimed = player?.id ?? null;
  for (const b of playersList.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b === button));
  if (player) nameInput.value = player.name;
  else nameInput.focus();
}

async function showPlayers() {
  let answer;
  try {
    const response = await fetch(`/v1/invites/${encodeURIComponent(code)}/players`, { cache: "no-store" });
    if (!response.ok) return; // the redeem below says why (used, expired, unknown)
    answer = await response.json();
  } catch {
    return; // no signal yet: the name alone still joins
  }
  if (!answer.players?.length) return;
  const buttons = answer.players.map((p) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "claim";
    b.dataset.player = p.id;
    b.textContent = `I am ${p.name}`;
    if (p.claimedBy) {
      b.disabled = true;
      const taken = document.createElement("span");
      taken.className = "taken";
      taken.textContent = ` · on ${p.claimedBy}`;
      b.append(taken);
    } else {
      b.addEventListener("click", () => choose(p, b));
    }
    return b;
  });
  const other = document.createElement("button");
  other.type = "button";
  other.className = "claim other";
  other.textContent = "Someone else";
  other.addEventListener("click", () => {
    nameInput.value = "";
    choose(null, other);
  });
  playersList.replaceChildren(...buttons, other);
  playersList.hidden = false;
  document.getElementById("players-label").hidden = false;
}

// A name typed by hand after a tap is someone else.
nameInput.addEventListener("input", () => {
  if (claimed !== null) choose(null, null);
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = nameInput.value.trim();
  if (name.length === 0) {
    message.textContent = "Enter your name first.";
    return;
  }
  document.getElementById("go").disabled = true;
  message.textContent = "Joining…";
  try {
    const deviceID = `phone-${uuid().toLowerCase()}`;
    const request = { code, deviceID, name: `${name}'s phone` };
    if (claimed) request.playerID = claimed;
    const response = await fetch("/v1/invites/redeem", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
      cache: "no-store",
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body?.error?.message ?? `the server answered ${response.status}`);
    localStorage.setItem(
      "hyzer.phone",
      JSON.stringify({
        name, deviceID: body.deviceID, token: body.deviceToken, groupID: body.groupID, groupName: body.groupName,
        playerID: body.playerID ?? null,
      }),
    );
    location.replace("/phone/");
  } catch (error) {
    message.textContent = `Could not join: ${error.message}`;
    document.getElementById("go").disabled = false;
  }
});

showPlayers();
