// Random ids for devices and score events (RFC 4122 version 4), from
// crypto.getRandomValues, which every browser has in every context. crypto.randomUUID
// exists only in secure contexts (https, localhost), and a phone on the clubhouse's
// plain-http LAN is not in one: joining failed there at the first tap (issue 32).
export function uuid() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // the RFC 4122 variant
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`.toUpperCase();
}
