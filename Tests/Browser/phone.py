#!/usr/bin/env python3
"""The phone scorecard in a real headless Chromium, against a real hyzer-server (issues 11
and 32), the way a phone reaches it on a real network: never from 127.0.0.1 or localhost,
which browsers treat as secure contexts. The journey runs twice:

  lan:    http://clubhouse.test:PORT, a plain-http LAN name (a private /etc/hosts in this
          test's own mount namespace maps it to the server): no service worker, no
          crypto.randomUUID; the page says it cannot reopen without signal.
  public: https://scores.test:PORT through Caddy, with a certificate pebble (Let's Encrypt's
          test ACME server) issued by HTTP-01; Chromium trusts only pebble's root (its own
          NSS database, nothing ignored), and the kiosk device syncs over the same name.

  1. A phone joins with an invite (`hyzer-server group invite`): /join/CODE, "I am Nate" (a
     registered player, claimed for this phone), and it is a device of the group with its own
     token; the same invite refuses a second phone; to another invite's page Nate is taken
     until the admin releases him (`hyzer-server device release`).
  2. Its scorecard shows the round the kiosk started, and its standings are the kiosk's
     (`hyzer standings` on the kiosk's own store).
  3. A score tapped in online reaches the live board page within 1 s of the tap, and the
     phone credits it "from Nate's phone".
  4. With the network cut (DevTools offline), two scores are tapped in and wait in the
     IndexedDB outbox; over https the page, reloaded offline, still opens (service worker)
     and still holds them; back online they are pushed.
  5. The kiosk's database then holds each of the phone's scores exactly once, reported by
     the player the phone claimed.
  6. The server restarts: the phone's device name is still the server's (stored, not held
     in memory), and the phone syncs on.
  7. Revoked (`hyzer-server device revoke`), the phone stops syncing and says so.
  public only: the manifest is installable (DevTools' Page.getAppManifest, no errors); a
  round summary once opened reopens offline; pebble's short-lived certificate is renewed by
  Caddy with no restart while the phone and the kiosk push, and no push is lost.

Run by `make test` (make browser-test): python phone.py --bin .build/debug
With --screenshots DIR it also saves the scorecard for docs/screens.
"""

import argparse
import json
import os
import sqlite3
import sys
import time

from selenium.webdriver.common.by import By

import acme
from common import (LAN_NAME, PUBLIC_NAME, board_rows, check, chromium, cli_standings, over_each_origin,
                    reexec_with_hosts, summary_rows, wait_for)


def phone_board(driver):
    """The phone's expanded standings: [(position, name, progress, to-par)]."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#board li')].map(li =>"
        " [...li.children].map(c => c.innerText))")
    return [tuple(r) for r in rows]


def card_values(driver):
    """{participant name: shown value} of the hole on screen."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#card .player')].map(li =>"
        " [li.querySelector('.name').firstChild.textContent, li.querySelector('.value').innerText])")
    return dict(rows)


def show_standings(driver, shown):
    """Opens (or closes) the phone's standings under the pill, whatever they were."""
    driver.execute_script(
        "const pill = document.getElementById('pill');"
        "if ((pill.getAttribute('aria-expanded') === 'true') !== arguments[0]) pill.click();", shown)


def claimable(driver):
    """{player name: {id, free, text}} as the join page offers them ("I am Nate")."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#players button[data-player]')].map(b =>"
        " [b.firstChild.textContent.replace(/^I am /, ''), {id: b.dataset.player, free: !b.disabled, text: b.innerText}])")
    return dict(rows or [])


def card_credits(driver):
    """{participant name: where the hole's score came from} ("from Nate's phone")."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#card .player')].map(li =>"
        " [li.querySelector('.name').firstChild.textContent, li.querySelector('.by')?.innerText ?? null])")
    return dict(rows)


def tap_score(driver, name, strokes):
    """Opens the player's picker (it starts at par, or the value there), turns it to
    `strokes` with − and +, and saves: taps, each in one script call (the page redraws when
    a sync brings something, so an element found in one call may be gone in the next)."""
    opened = driver.execute_script(
        "const li = [...document.querySelectorAll('#card .player')]"
        ".find(li => li.querySelector('.name').firstChild.textContent === arguments[0]);"
        "if (!li) return false; li.querySelector('button.row').click(); return true;", name)
    check(opened, f"no row for {name} on the card")
    for _ in range(12):
        shown = driver.execute_script("return Number(document.querySelector('.picker .strokes').innerText)")
        if shown == strokes:
            break
        driver.execute_script("document.querySelector(arguments[0]).click()",
                              ".picker .minus" if shown > strokes else ".picker .plus")
    driver.execute_script("document.querySelector('.picker .save').click()")


def sync_text(driver):
    return driver.find_element(By.ID, "sync").text


def devices_named(world):
    """{device id: name} as the server's API gives them to the admin."""
    status, body = world.http("GET", "/v1/devices", world.admin)
    check(status == 200, f"GET /v1/devices answered {status}: {body[:200]!r}")
    return {d["deviceID"]: d["name"] for d in json.loads(body)["devices"]}


def kiosk_scores(world, device_id):
    """[(participant, hole, strokes)] and the names credited, of one device's scores in the
    kiosk's own store."""
    with sqlite3.connect(os.path.join(world.device_data, "hyzer.sqlite")) as db:
        scores = db.execute(
            "SELECT hex(participant_id), hole, strokes FROM score_events WHERE device_id = ? ORDER BY seq",
            (device_id,)).fetchall()
        credited = db.execute("SELECT DISTINCT device_name FROM score_events WHERE device_id = ?",
                              (device_id,)).fetchall()
    return scores, credited


def journey(world, kind, args, chain, drivers):
    """The phone's whole journey against `world`'s server; over https through `chain` (a
    started acme.PublicName) when given. Every browser it opens is added to `drivers`."""
    secure = chain is not None
    base = chain.base if secure else world.base

    def browser(width, height, name):
        driver = (acme.chromium_trusting(chain.root_pem, width, height, os.path.join(world.work, f"home-{name}"))
                  if secure else chromium(width, height))
        drivers.append(driver)
        return driver

    # Over the LAN the kiosk's card is a shotgun card that started on hole 10 (issue 36).
    start_hole = 1 if secure else 10
    round_id = world.start_group("Saturday Skins", "Clubhouse kiosk", players=5, server=base,
                                 ca=chain.root_pem if secure else None, start_hole=start_hole)
    invite = world.run("hyzer-server", "group", "invite", "Saturday Skins", "--base-url", base,
                       data=world.server_data)[-1]
    check(invite.startswith(base + "/join/"), f"group invite printed {invite!r}")

    # 1. Join with the invite, as the group's registered player Nate ("I am Nate").
    phone = browser(390, 844, "phone")
    phone.get(invite)
    check(phone.execute_script("return window.isSecureContext") == secure,
          f"{base} is {'not ' if secure else ''}a secure context to Chromium")
    offered = wait_for(lambda: claimable(phone), 10)
    check("Nate" in offered and offered["Nate"]["free"], f"the join page offers {offered}")
    phone.execute_script("document.querySelector(`#players button[data-player='${arguments[0]}']`).click()",
                         offered["Nate"]["id"])
    check(phone.find_element(By.ID, "name").get_attribute("value") == "Nate", "tapping Nate did not fill in the name")
    if args.screenshots and secure:
        os.makedirs(args.screenshots, exist_ok=True)
        phone.save_screenshot(os.path.join(args.screenshots, "phone-join.png"))
    phone.find_element(By.ID, "go").click()
    check(wait_for(lambda: phone.current_url.endswith("/phone/"), 10),
          f"joining did not open the scorecard: {phone.current_url}, {phone.find_element(By.TAG_NAME, 'body').text}")
    creds = phone.execute_script("return JSON.parse(localStorage.getItem('hyzer.phone'))")
    check(creds and creds["token"].startswith("hzd_") and creds["deviceID"].startswith("phone-"),
          f"the phone kept {creds}")
    check(devices_named(world).get(creds["deviceID"]) == "Nate's phone", f"the server names {devices_named(world)}")
    check((creds.get("playerID") or "").upper() == offered["Nate"]["id"].upper(), f"the phone claimed {creds.get('playerID')}")
    listed = world.run("hyzer-server", "device", "list", creds["groupID"], data=world.server_data)
    check(any("Nate's phone" in line and "plays as Nate" in line for line in listed), f"the server lists {listed}")
    # The invite works once.
    stranger = browser(390, 844, "stranger")
    stranger.get(invite)
    stranger.find_element(By.ID, "name").send_keys("Eve")
    stranger.find_element(By.ID, "go").click()
    used = wait_for(lambda: "already used" in stranger.find_element(By.ID, "message").text, 10)
    check(used, f"a second phone with the same invite got {stranger.find_element(By.ID, 'message').text!r}")
    # Another phone with a new invite sees Nate taken, until the admin releases him.
    second = world.run("hyzer-server", "group", "invite", "Saturday Skins", "--base-url", base,
                       data=world.server_data)[-1]
    stranger.get(second)
    taken = wait_for(lambda: claimable(stranger).get("Nate"), 10)
    check(taken and not taken["free"] and "Nate's phone" in taken["text"], f"to a second phone Nate is {taken}")
    world.run("hyzer-server", "device", "release", creds["groupID"], creds["deviceID"], data=world.server_data)
    stranger.refresh()
    check(wait_for(lambda: (claimable(stranger).get("Nate") or {}).get("free"), 10),
          f"released, Nate is {claimable(stranger).get('Nate')} to a second phone")
    stranger.quit()
    drivers.remove(stranger)

    # 2. The round and the kiosk's standings; what the page says it cannot do here.
    check(wait_for(lambda: len(card_values(phone)) == 5, 15), f"the phone's card shows {card_values(phone)}")
    note = phone.find_element(By.ID, "offline-note")
    if secure:
        check(not note.is_displayed(), f"over https the page says {note.text!r}")
        check(wait_for(lambda: phone.execute_script("return !!navigator.serviceWorker.controller"), 10),
              "over https no service worker controls the scorecard")
    else:
        check(note.is_displayed() and "cannot open again without signal" in note.text and "keep it open" in note.text,
              f"over plain http the page says {note.text!r} (displayed: {note.is_displayed()})")
    show_standings(phone, True)
    want = cli_standings(world, round_id)
    check(wait_for(lambda: phone_board(phone) == want, 5), f"the phone ranks {phone_board(phone)}, the kiosk {want}")

    # 3. A score tapped in online shows on the live board within 1 s, credited to the phone.
    link = world.run("hyzer-server", "group", "board-link", "Saturday Skins", "--base-url", base,
                     data=world.server_data)[-1]
    board = browser(1280, 720, "board")
    board.get(link)
    check(wait_for(lambda: board_rows(board) == want, 10), f"the board shows {board_rows(board)}")
    hole = int(phone.find_element(By.ID, "hole").text.split()[1])
    # The demo played six holes of the card's order: the phone opens on the seventh (16 for a
    # card that started on 10, not hole 1), and its arrows walk the card's order.
    check(hole == (start_hole - 1 + 6) % 18 + 1, f"the phone opened on hole {hole} of a card that started on {start_hole}")
    phone.find_element(By.CSS_SELECTOR, "button[aria-label='previous hole']").click()
    shown = int(phone.find_element(By.ID, "hole").text.split()[1])
    check(shown == (hole - 2) % 18 + 1, f"before hole {hole} the phone shows hole {shown}")
    phone.find_element(By.CSS_SELECTOR, "button[aria-label='next hole']").click()
    check(int(phone.find_element(By.ID, "hole").text.split()[1]) == hole, "the next-hole arrow did not come back")
    names = list(card_values(phone))
    tapped = time.monotonic()
    tap_score(phone, names[0], 1)
    check(wait_for(lambda: board_rows(board) != want, 5), "the board did not change after the phone's score")
    lag = time.monotonic() - tapped
    print(f"phone ({kind}): a score tapped in online was on the live board {lag * 1000:.0f} ms after the tap")
    check(lag <= 1.0, f"the board took {lag:.2f} s to show the phone's score (goal: within 1 s)")
    check(wait_for(lambda: card_credits(phone).get(names[0]) == "from Nate's phone", 5),
          f"the phone credits its own score as {card_credits(phone)}")

    # 4. Offline: two more scores wait in the outbox; over https the page reopens offline.
    phone.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
    tap_score(phone, names[1], 2)
    tap_score(phone, names[2], 5)
    check(wait_for(lambda: "2 waiting to send" in sync_text(phone), 10),
          f"offline the phone says {sync_text(phone)!r}")
    if secure:
        phone.refresh()
    check(wait_for(lambda: card_values(phone).get(names[1]) == "2" and card_values(phone).get(names[2]) == "5", 10),
          f"offline{' and reloaded' if secure else ''} the card shows {card_values(phone)}")
    if args.screenshots and secure:
        os.makedirs(args.screenshots, exist_ok=True)
        time.sleep(1)
        phone.save_screenshot(os.path.join(args.screenshots, "phone-offline.png"))
    phone.delete_network_conditions()
    check(wait_for(lambda: sync_text(phone) == "synced", 20), f"back online the phone says {sync_text(phone)!r}")
    if secure:
        show_standings(phone, True)  # the reload closed them

    # 5. The kiosk holds each of the phone's scores once.
    world.run("hyzer", "sync", data=world.device_data)
    mine, credited = kiosk_scores(world, creds["deviceID"])
    check(credited == [("Nate's phone",)], f"the phone's scores are credited to {credited}")
    with sqlite3.connect(os.path.join(world.device_data, "hyzer.sqlite")) as db:
        reporters = db.execute("SELECT DISTINCT hex(reported_by) FROM score_events WHERE device_id = ?",
                               (creds["deviceID"],)).fetchall()
    check(reporters == [(creds["playerID"].replace("-", "").upper(),)],
          f"the phone's scores are reported by {reporters}, not the player it claimed ({creds['playerID']})")
    check(len(mine) == 3, f"the kiosk holds {len(mine)} of the phone's scores, not 3: {mine}")
    check(sorted(s for _, h, s in mine if h == hole) == [1, 2, 5], f"the kiosk holds {mine}")
    after = cli_standings(world, round_id)
    check(wait_for(lambda: board_rows(board) == after, 10), f"the board shows {board_rows(board)}, the kiosk {after}")
    check(wait_for(lambda: phone_board(phone) == after, 10), f"the phone ranks {phone_board(phone)}, the kiosk {after}")

    # 5b. The kiosk's Undo (issue 35) reaches the phone: the kiosk changes the phone's score
    # and undoes it (the phone's score and credit come back), and puts a score in an empty
    # cell and undoes it (empty again); the phone then ranks as the kiosk does.
    empty = card_values(phone).get(names[3])
    for who, strokes in ((names[1], "7"), (names[3], "6")):
        world.run("hyzer", "score", round_id, who, str(hole), strokes, data=world.device_data)
        world.run("hyzer", "round", "undo-score", round_id, who, str(hole), strokes, data=world.device_data)
    undone = cli_standings(world, round_id)
    check(undone == after, f"after the undos the kiosk ranks {undone}, not {after} as before them")
    check(wait_for(lambda: card_values(phone).get(names[1]) == "2" and card_values(phone).get(names[3]) == empty, 10),
          f"after the kiosk's undos the phone's card shows {card_values(phone)}")
    check(card_credits(phone).get(names[1]) == "from Nate's phone", f"the phone credits {card_credits(phone)}")
    check(wait_for(lambda: phone_board(phone) == undone, 10), f"the phone ranks {phone_board(phone)}, the kiosk {undone}")

    # 6. A server restart: the phone's name is the server's still, and the phone syncs on.
    world.stop_server()
    world.start_server()
    check(devices_named(world).get(creds["deviceID"]) == "Nate's phone",
          f"after a restart the server names {devices_named(world)}")
    tap_score(phone, names[3], 4)
    check(wait_for(lambda: sync_text(phone) == "synced", 20), f"after the restart the phone says {sync_text(phone)!r}")
    world.run("hyzer", "sync", data=world.device_data)
    check(len(kiosk_scores(world, creds["deviceID"])[0]) == 4, "the phone's score after the restart did not reach the kiosk")
    # Its score went in the cell the kiosk had undone: it replaced the retraction too.
    disputes = world.run("hyzer", "discrepancies", round_id, data=world.device_data)
    check(not any(names[3] in line for line in disputes), f"the kiosk has a dispute after the phone's score: {disputes}")

    if secure:
        public_extras(world, chain, phone, browser, names, creds, round_id, args)
    elif args.screenshots:
        show_standings(phone, False)  # the card alone
        time.sleep(1)
        phone.save_screenshot(os.path.join(args.screenshots, "phone-card-lan.png"))

    # 7. Revoked like any device: the phone stops syncing and says why; a score tapped in
    # afterwards stays on the phone and never reaches the kiosk.
    before = len(kiosk_scores(world, creds["deviceID"])[0])
    world.run("hyzer-server", "device", "revoke", creds["groupID"], creds["deviceID"], data=world.server_data)
    tap_score(phone, names[4], 4)
    check(wait_for(lambda: sync_text(phone).startswith("Not syncing"), 15),
          f"revoked, the phone says {sync_text(phone)!r}")
    world.run("hyzer", "sync", data=world.device_data)
    count = len(kiosk_scores(world, creds["deviceID"])[0])
    check(count == before, f"after the revocation the kiosk holds {count} of the phone's scores, not {before}")


def public_extras(world, chain, phone, browser, names, creds, round_id, args):
    """What only a secure context allows: installing the scorecard, reopening a summary
    offline; and the certificate's renewal under live traffic."""
    # The manifest, as Chromium reads it for "Add to Home Screen".
    manifest = phone.execute_cdp_cmd("Page.getAppManifest", {})
    check(manifest.get("url", "").endswith("/phone/manifest.webmanifest"), f"the page's manifest is {manifest.get('url')!r}")
    check(manifest.get("errors") == [], f"the manifest has errors: {manifest.get('errors')}")
    parsed = json.loads(manifest["data"])
    check(parsed["start_url"] == "/phone/" and {i["sizes"] for i in parsed["icons"]} >= {"192x192", "512x512"},
          f"the manifest says {parsed}")
    installable = phone.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    check(installable.get("installabilityErrors") == [], f"Chromium will not install it: {installable}")
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
        show_standings(phone, False)  # the card alone
        time.sleep(1)
        phone.save_screenshot(os.path.join(args.screenshots, "phone-card.png"))

    # A round summary once opened reopens with no signal.
    link = world.run("hyzer", "round", "summary-link", round_id, data=world.device_data)[-1]
    check(link.startswith(chain.base + "/s/"), f"summary-link printed {link!r}")
    summary = browser(390, 844, "summary")
    summary.get(link)
    want = [(p, n, t) for (p, n, _, t) in cli_standings(world, round_id)]
    check(wait_for(lambda: summary_rows(summary) == want, 10), f"the summary ranks {summary_rows(summary)}")
    check(wait_for(lambda: summary.execute_script("return !!navigator.serviceWorker.controller"), 10),
          "no service worker controls the summary page")
    summary.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
    summary.refresh()
    check(wait_for(lambda: summary_rows(summary) == want, 10),
          f"reopened offline, the summary shows {summary_rows(summary)}: {summary.find_element(By.TAG_NAME, 'body').text[:200]!r}")
    status = summary.find_element(By.ID, "status").text
    check("No signal" in status, f"offline the summary says {status!r}")
    summary.delete_network_conditions()

    # Renewal: the kiosk and the phone keep pushing while Caddy swaps in pebble's next
    # certificate; nothing is restarted and nothing is lost.
    first = chain.served_certificate()
    caddy_pid = chain.caddy.pid
    pushed = 0
    started = time.monotonic()
    renewed = None
    while renewed is None:
        tap_score(phone, names[pushed % 5], 2 + pushed % 4)
        world.run("hyzer", "score", round_id, names[pushed % 5], "8", str(2 + pushed % 5), data=world.device_data)
        pushed += 1
        served = chain.served_certificate()
        if served["serial"] != first["serial"]:
            renewed = served
        check(time.monotonic() - started < 240, f"no renewal within 240 s: {chain.log_tail()}")
        time.sleep(2)
    check(chain.caddy.pid == caddy_pid and chain.caddy.poll() is None, "Caddy was restarted for the renewal")
    print(f"phone (public): certificate {first['serial']} (until {first['not_after']}) renewed as "
          f"{renewed['serial']} (until {renewed['not_after']}) {time.monotonic() - started:.0f} s in, "
          f"with {pushed} scores from the phone and {pushed} from the kiosk meanwhile")
    tap_score(phone, names[0], 3)
    check(wait_for(lambda: sync_text(phone) == "synced", 20), f"after the renewal the phone says {sync_text(phone)!r}")
    world.run("hyzer", "sync", data=world.device_data)
    phone_events = phone.execute_script(
        "return new Promise(r => { const o = indexedDB.open('hyzer-phone'); o.onsuccess = () => {"
        " const q = o.result.transaction('events').objectStore('events').getAll();"
        " q.onsuccess = () => r(q.result.filter(e => e.deviceID === arguments[0]).map(e => e.id)); }; })",
        creds["deviceID"])
    with sqlite3.connect(os.path.join(world.device_data, "hyzer.sqlite")) as db:
        held = {row[0] for row in db.execute("SELECT hex(id) FROM score_events WHERE device_id = ?", (creds["deviceID"],))}
    lost = [e for e in phone_events if e.replace("-", "").upper() not in held]
    check(not lost, f"{len(lost)} of the phone's {len(phone_events)} scores never reached the kiosk: {lost[:3]}")
    # And every score of the kiosk's reached the phone: the same standings on both.
    want = cli_standings(world, round_id)
    show_standings(phone, True)
    check(wait_for(lambda: phone_board(phone) == want, 15), f"the phone ranks {phone_board(phone)}, the kiosk {want}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--screenshots")
    parser.add_argument("--only", choices=["lan", "public"], help="run one of the two journeys")
    args = parser.parse_args()
    status = reexec_with_hosts([LAN_NAME, PUBLIC_NAME])
    if status is not None:
        return status

    def run(kind, world, chain, drivers):
        journey(world, kind, args, chain, drivers)
        return (f"joined from {chain.base if chain else world.base} with a single-use invite, "
                "kiosk's standings, live board within 1 s, offline outbox, each score once in the kiosk's store, "
                "names kept over a restart, revoked like any device"
                + ("; installable, summary offline, certificate renewed with no push lost" if chain else ""))

    return over_each_origin("phone", args, run, short_lived=True)


if __name__ == "__main__":
    sys.exit(main())
