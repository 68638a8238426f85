// /join/CODE: redeems the kiosk's invite for this phone's own device token, keeps it in
// the browser (localStorage, this origin only), and opens the scorecard. The code works
// once and for ten minutes; the server says which, if not.

const code = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const form = document.getElementById("join");
const nameInput = document.getElementById("name");
const message = document.getElementById("message");

const saved = JSON.parse(localStorage.getItem("hyzer.phone") ?? "null");
if (saved?.name) nameInput.value = saved.name;

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
    const deviceID = `phone-${crypto.randomUUID()}`;
    const response = await fetch("/v1/invites/redeem", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code, deviceID, name: `${name}'s phone` }),
      cache: "no-store",
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body?.error?.message ?? `the server answered ${response.status}`);
    localStorage.setItem(
      "hyzer.phone",
      JSON.stringify({ name, deviceID: body.deviceID, token: body.deviceToken, groupID: body.groupID, groupName: body.groupName }),
    );
    location.replace("/phone/");
  } catch (error) {
    message.textContent = `Could not join: ${error.message}`;
    document.getElementById("go").disabled = false;
  }
});
