// The pages' service worker, registered twice, and what it keeps depends on where:
//   /phone/sw.js (scope /phone/): the scorecard's page, scripts, fonts and icons, so the
//     scorecard opens with no signal (hole 7 at most courses);
//   /s/sw.js (scope /s/): a round summary's page, so a summary once opened opens again
//     offline (its data is kept by summary.js itself, in localStorage).
// Scores never pass through here: they wait in IndexedDB (phone.js) until the server takes
// them. Browsers run service workers only in secure contexts (https, localhost): over a
// LAN's plain http the pages say what they cannot do instead (docs/phones.md).
const scope = new URL(self.registration.scope).pathname;
const FONTS = ["/web/fonts/Quicksand-Bold.ttf", "/web/fonts/Quicksand-Medium.ttf", "/web/fonts/JetBrainsMono-Bold.ttf"];
const KEPT = {
  "/phone/": {
    cache: "hyzer-phone-v4",
    // The voice parser too (issue 38): a score spoken with no signal is parsed here.
    shell: ["/phone/", "/phone/manifest.webmanifest", "/web/phone.js", "/web/ids.js", "/web/rules.js", "/web/phone-voice.js", "/web/dom.js",
      "/web/voice.js", "/web/phone.css",
      "/web/common.css", "/web/icon-192.png", ...FONTS],
    // Every page under the scope is the one scorecard page.
    page: "/phone/",
  },
  "/s/": {
    cache: "hyzer-summary-v1",
    shell: ["/web/summary.js", "/web/summary.css", "/web/common.css", ...FONTS],
    // /s/TOKEN: the same page for every token (it reads the token from its own path), kept
    // under one key when first opened.
    page: "/s/",
  },
}[scope];

// The page that registered this worker is not controlled by it yet, so its own load went by
// uncached: it is fetched again here and kept as the scope's page (a summary's first visit).
async function install() {
  const cache = await caches.open(KEPT.cache);
  await cache.addAll(KEPT.shell);
  if (!KEPT.shell.includes(KEPT.page)) {
    const windows = await self.clients.matchAll({ includeUncontrolled: true, type: "window" });
    const page = windows.map((w) => new URL(w.url)).find((u) => u.pathname.startsWith(scope));
    if (page) await cache.put(KEPT.page, await fetch(page.pathname, { cache: "no-store" }));
  }
  await self.skipWaiting();
}

self.addEventListener("install", (event) => event.waitUntil(install()));

self.addEventListener("activate", (event) => {
  const mine = scope === "/phone/" ? "hyzer-phone-" : "hyzer-summary-";
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(mine) && k !== KEPT.cache).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The key a request is kept under: the scope's page for a navigation inside the scope, the
// path for a file of the shell; nothing for the API and everything else.
function keyOf(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return null;
  if (request.mode === "navigate" && url.pathname.startsWith(scope)) return KEPT.page;
  return KEPT.shell.includes(url.pathname) ? url.pathname : null;
}

// The cached copy at once (it works offline), refreshed from the network behind it, so a
// new server version's page is used from the next visit on. A page not cached yet (the
// first summary opened) goes to the network and is kept.
self.addEventListener("fetch", (event) => {
  const key = keyOf(event.request);
  if (!key) return;
  event.respondWith(
    caches.open(KEPT.cache).then(async (cache) => {
      const cached = await cache.match(key);
      const fresh = fetch(event.request)
        .then((response) => {
          if (response.ok) cache.put(key, response.clone());
          return response;
        })
        .catch(() => cached ?? Response.error());
      return cached ?? fresh;
    }),
  );
});
