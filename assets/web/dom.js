// Building the phone's page: one element with its attributes (an `on…` attribute is a
// listener; null, undefined and false leave an attribute out) and children. Shared by the
// scorecard (phone.js) and its voice overlay (phone-voice.js).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}
