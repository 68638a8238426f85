// The scorecard's service worker: keeps the page, its scripts and fonts so the scorecard
// opens with no signal (hole 7 at most courses). Scores never pass through here: they wait
// in IndexedDB (phone.js) until the server takes them. Served from /phone/sw.js, so it
// controls /phone/ only.
const CACHE = "hyzer-phone-v2";
const SHELL = [
  "/phone/", "/web/phone.js", "/web/rules.js", "/web/phone.css", "/web/common.css",
  "/web/fonts/Quicksand-Bold.ttf", "/web/fonts/Quicksand-Medium.ttf", "/web/fonts/JetBrainsMono-Bold.ttf",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The shell: the cached copy at once (it works offline), refreshed from the network behind
// it, so a new server version's page is used from the next visit on. Everything else (the
// API) goes to the network untouched.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || !SHELL.includes(url.pathname)) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const cached = await cache.match(url.pathname);
      const fresh = fetch(event.request)
        .then((response) => {
          if (response.ok) cache.put(url.pathname, response.clone());
          return response;
        })
        .catch(() => cached);
      return cached ?? fresh;
    }),
  );
});
