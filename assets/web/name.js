// /n/CODE: one name typed on a phone for the kiosk (issue 32). The kiosk's name screens show
// this page's QR code, because entering a name with the knob takes 9–16 actions and a
// phone's keyboard has every script. No joining, no token: the code is the grant, for this
// one name, for a few minutes; the server says so when it is spent or gone.

const code = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const form = document.getElementById("send");
const nameInput = document.getElementById("name");
const message = document.getElementById("message");
const go = document.getElementById("go");

const path = `/v1/name-requests/${encodeURIComponent(code)}`;

async function ask(init) {
  const response = await fetch(path, { ...init, cache: "no-store" });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body?.error?.message ?? `the server answered ${response.status}`);
  return body;
}

function closed(text) {
  message.textContent = text;
  nameInput.disabled = true;
  go.disabled = true;
}

try {
  const prompt = await ask();
  document.getElementById("label").textContent = prompt.label;
  document.title = `${prompt.label} · for the kiosk`;
  nameInput.focus();
} catch (error) {
  closed(`Cannot type a name here: ${error.message}`);
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = nameInput.value.trim();
  if (name.length === 0) {
    message.textContent = "Type a name first.";
    return;
  }
  go.disabled = true;
  message.textContent = "Sending…";
  try {
    const sent = await ask({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
    message.className = "message sent";
    closed(`Sent: ${sent.name}. Press the knob on the kiosk to use it.`);
  } catch (error) {
    message.textContent = `Not sent: ${error.message}`;
    go.disabled = false;
  }
});
