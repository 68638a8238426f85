#!/usr/bin/env python3
"""The live board page in a real headless Chromium, against a real hyzer-server (issue 11).

What it shows, each as a check that fails loudly:
  1. `hyzer-server group board-link` prints a URL whose page, opened in Chromium, shows the
     group's round with the standings the devices compute (`hyzer standings`).
  2. A score recorded and pushed by another device (`hyzer score`, which syncs) reaches the
     open page within 1 s of the push being acknowledged, over the event stream.
  3. The page keeps its link working after the server restarts (it reconnects).
  4. A revoked link (`board-unlink`) and a device's own token get nothing: the page says the
     link is not valid, and the view token is refused by push and pull (401).
  5. The page goes out with the protective headers (CSP without inline script, no framing).
  6. A league night of 30 in 8 cards is one section, ranked as the device ranks it.
  7. Between rounds the page shows the season's table as the device computes it.
  8. A league night ranked by net says so in its header and ranks as the device does.

Run by `make test` (make browser-test): python live_board.py --bin .build/debug
With --screenshots DIR it also saves the board as a TV (1920x1080) and a phone (390x844)
would show it, for docs/screens.
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium.webdriver.common.by import By

from common import LAN_NAME, Fail, World, board_rows, reexec_with_hosts, check, chromium, cli_standings, wait_for


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="directory of hyzer, hyzer-server")
    parser.add_argument("--screenshots", help="write board-tv.png and board-phone.png here")
    args = parser.parse_args()
    status = reexec_with_hosts([LAN_NAME])  # the page by its LAN name, not 127.0.0.1
    if status is not None:
        return status
    bin_dir = os.path.abspath(args.bin)

    work = tempfile.mkdtemp(prefix="hyzer-board-")
    world = World(bin_dir, work)
    driver = None
    try:
        round_id = world.start_group("Tuesday Doubles", "Nate's phone", players=6)
        link = world.run("hyzer-server", "group", "board-link", "Tuesday Doubles", "--base-url", world.base,
                         data=world.server_data)[-1]
        check(link.startswith(world.base + "/g/") and "#view=hzv_" in link, f"board-link printed {link!r}")
        view_token = link.split("#view=")[1]
        group_id = link.split("/g/")[1].split("/")[0]

        # 5. Headers on the page itself.
        with urllib.request.urlopen(link.split("#")[0], timeout=5) as r:
            csp = r.headers["Content-Security-Policy"] or ""
            check("script-src 'self'" in csp and "unsafe-inline" not in csp, f"page CSP is {csp!r}")
            check("frame-ancestors 'none'" in csp and r.headers["X-Frame-Options"] == "DENY", "the page may be framed")

        driver = chromium(1920, 1080)
        driver.get(link)

        # 1. The page shows what the device computes.
        want = cli_standings(world, round_id)
        got = wait_for(lambda: board_rows(driver) == want and board_rows(driver), 10)
        check(got == want, f"the page shows {board_rows(driver)}, the device computes {want}")
        status = driver.find_element(By.ID, "connection").text
        check(status == "live", f"the page says {status!r}, not live")

        # 2. A score pushed by the device shows within 1 s of its acknowledgement. The
        # last-placed player birdies the next hole (or the first player without a score on it).
        last = want[-1]
        hole = int(last[2].split()[-1]) + 1 if last[2].startswith("thru") else 1
        world.run("hyzer", "score", round_id, last[1], str(hole), "1", data=world.device_data)
        acked = time.monotonic()  # `hyzer score` returns after the server acknowledged the push
        check(wait_for(lambda: board_rows(driver) != want, 5), "the page did not change after the push")
        lag = time.monotonic() - acked
        want_after = cli_standings(world, round_id)
        check(want_after != want, "the new score did not change the device's standings")
        got = wait_for(lambda: board_rows(driver) == want_after, 5)
        check(got, f"after the push the page shows {board_rows(driver)}, not {want_after}")
        print(f"live board: the pushed score was on the page {lag * 1000:.0f} ms after the push was acknowledged")
        check(lag <= 1.0, f"the page took {lag:.2f} s to show a pushed score (goal: within 1 s)")

        if args.screenshots:
            os.makedirs(args.screenshots, exist_ok=True)
            time.sleep(1.5)  # after the changed row's highlight fades
            driver.save_screenshot(os.path.join(args.screenshots, "board-tv.png"))
            driver.set_window_size(390, 844)
            time.sleep(0.5)
            driver.save_screenshot(os.path.join(args.screenshots, "board-phone.png"))
            driver.set_window_size(1920, 1080)

        # 3. The server restarts: the page reconnects and follows the next score.
        world.stop_server()
        check(wait_for(lambda: driver.find_element(By.ID, "connection").text == "reconnecting…", 10),
              "the page did not notice the server going away")
        world.start_server()
        check(wait_for(lambda: driver.find_element(By.ID, "connection").text == "live", 15),
              "the page did not reconnect to the restarted server")
        world.run("hyzer", "score", round_id, last[1], str(hole + 1), "2", data=world.device_data)
        again = cli_standings(world, round_id)
        check(wait_for(lambda: board_rows(driver) == again, 5), f"after the restart the page shows {board_rows(driver)}")

        # 6. A league night (issue 36): 30 players drawn into 8 cards on the device and
        # synced, a score on each card. The page shows one section ranking all 30 as the
        # device does (`hyzer event show`), each row with its card; on the 1080p TV it pages
        # (leaders pinned, a page line, other rows a page later), on a phone it scrolls.
        league_night(world, driver, args.screenshots)

        # 7. The season (issue 37): every round finished, six weeks of a league of 12
        # imported from UDisc and a season set up around today, both on the device and
        # synced. Between rounds the page shows the season's table, row for row as the
        # device computes it (`hyzer season standings`).
        season(world, driver, round_id, args.screenshots)

        # 8. A league night ranked by net (issue 37): the league's 12 drawn into cards on
        # its course, three holes played on each. The page says "net" in the night's header
        # and ranks it as the device does (`hyzer event show`), net to a tenth.
        net_night(world, driver, args.screenshots)

        # 4. The view token reads and nothing else; a revoked link stops working.
        for method, path in (("GET", "/v1/pull"), ("POST", "/v1/push"), ("GET", "/v1/devices")):
            code, _ = world.http(method, path, view_token, b"{}" if method == "POST" else None)
            check(code == 401, f"{method} {path} with a view token answered {code}, not 401")
        code, _ = world.http("GET", f"/v1/groups/{group_id}/board", world.admin)
        check(code == 401, f"the board JSON with the admin token answered {code}: only view tokens read it")
        world.run("hyzer-server", "group", "board-unlink", "Tuesday Doubles", data=world.server_data)
        code, _ = world.http("GET", f"/v1/groups/{group_id}/board", view_token)
        check(code == 401, f"a revoked view token still reads the board ({code})")
        driver.refresh()
        refused = wait_for(lambda: "does not work" in driver.find_element(By.ID, "connection").text, 10)
        check(refused, f"after board-unlink the page says {driver.find_element(By.ID, 'connection').text!r}")
        print("live board: ok (standings as the device computes them, live within 1 s, reconnects, read-only, revocable)")
        return 0
    except Fail as failure:
        return world.report("live board", failure)
    finally:
        if driver:
            driver.quit()
        world.stop_server()
        shutil.rmtree(work, ignore_errors=True)


def night_rows(driver):
    """[(position, card, name, progress, to-par)] of the night section, hidden rows too."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('.night .row:not(.more)')].map(li =>"
        " ['.position', '.card', '.name', '.progress', '.to-par'].map(c => li.querySelector(c).textContent))")
    return [tuple(r) for r in rows]


def visible_names(driver):
    """The night's rows actually drawn (laid out and inside the window), top to bottom."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.night .row:not(.more)')].filter(li => {"
        " const r = li.getBoundingClientRect(); return r.height > 0 && r.bottom <= window.innerHeight; })"
        ".map(li => li.querySelector('.name').textContent)")


def league_night(world, driver, screenshots):
    names = [f"Player {i:02d}" for i in range(1, 31)]
    for name in names:
        world.run("hyzer", "player", "add", name, data=world.device_data)
    event = world.run("hyzer", "event", "create", "Thursday league", "--course", "Pine Hollow", "--players",
                      ",".join(names), "--draw", "random", "--seed", "36", "--skins", "card", "--ctp", "5",
                      data=world.device_data)[-1]
    shown = json.loads("\n".join(world.run("hyzer", "event", "show", event, "--json", data=world.device_data)))
    check(len(shown["cards"]) == 8, f"30 players drew {len(shown['cards'])} cards, not 8")
    for index, card in enumerate(shown["cards"]):
        # The first player of each card scores its start hole: an ace on card A, a birdie elsewhere.
        world.run("hyzer", "score", card["round"], card["players"][0], str(card["startHole"]),
                  "1" if index == 0 else "2", data=world.device_data)
    world.run("hyzer", "event", "ctp", event, "5", shown["cards"][1]["players"][0], data=world.device_data)
    shown = json.loads("\n".join(world.run("hyzer", "event", "show", event, "--json", data=world.device_data)))
    want = [(r["position"], r["card"], r["name"], f"thru {r['thru']}" if r["thru"].isdigit() else r["thru"],
             "E" if r["toPar"] == 0 else f"{r['toPar']:+d}") for r in shown["standings"]]
    check(wait_for(lambda: night_rows(driver) == want, 10),
          f"the night shows {night_rows(driver)[:4]}…, the device computes {want[:4]}…")
    side = driver.execute_script("return [...document.querySelectorAll('.night .side li')].map(li => li.textContent)")
    ctp = f"Closest to the pin, hole 5: {shown['cards'][1]['players'][0]}"
    check(ctp in side, f"the night's side games say {side}, not {ctp!r}")
    check(f"{shown['cards'][0]['players'][0]} on hole {shown['cards'][0]['startHole']}" in " ".join(side),
          f"the ace is not among {side}")
    # The TV pages: the leaders stay, a page line says which places show, and a page later
    # other places show.
    more = driver.execute_script("return document.querySelector('.night .more')?.textContent ?? ''")
    check(more.endswith("of 30"), f"the 1080p board does not page 30 players: page line {more!r}")
    first = visible_names(driver)
    check(len(first) < 30 and first[:3] == [r[2] for r in want[:3]], f"the first page shows {first}")
    fits = driver.execute_script("return document.querySelector('.night').getBoundingClientRect().bottom <= window.innerHeight + 1")
    check(fits, "the night's page does not fit the TV's screen (a wall cannot scroll)")
    if screenshots:
        driver.save_screenshot(os.path.join(screenshots, "board-league-night-tv.png"))
    check(wait_for(lambda: visible_names(driver) != first, 12), "the TV's page did not turn")
    later = visible_names(driver)
    check(later[:3] == first[:3], f"the leaders are not pinned: {first[:3]} then {later[:3]}")
    # A phone scrolls instead: every row shows, no page line.
    driver.set_window_size(390, 844)
    every = driver.execute_script(
        "return [...document.querySelectorAll('.night .row')].filter(li => li.getBoundingClientRect().height > 0).length")
    check(every == 30, f"a phone lays out {every} rows of the night's 30 (it scrolls, it does not page)")
    if screenshots:
        driver.save_screenshot(os.path.join(screenshots, "board-league-night-phone.png"))
    driver.set_window_size(1920, 1080)
    print(f"live board: a league night of 30 in 8 cards, ranked as the device does, pages on a TV ({more}), scrolls on a phone")


def season_rows(driver):
    """[(position, name, value)] of the season section, hidden rows too."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('.season .row:not(.more)')].map(li =>"
        " ['.position', '.name', '.to-par'].map(c => li.querySelector(c).textContent))")
    return [tuple(r) for r in rows]


def season(world, driver, round_id, screenshots):
    shown = json.loads("\n".join(world.run("hyzer", "event", "show", "--json", data=world.device_data)))
    for rid in [round_id] + [card["round"] for card in shown["cards"]]:
        world.run("hyzer", "round", "finish", rid, data=world.device_data)
    here = os.path.dirname(os.path.abspath(__file__))
    export = os.path.join(world.work, "league.csv")
    with open(export, "w") as f:
        subprocess.run([sys.executable, os.path.join(here, "..", "Fixtures", "udisc", "league.py"), "12", "6"],
                       stdout=f, check=True)
    world.run("hyzer", "import", "udisc", export, data=world.device_data)
    today = datetime.date.today()
    world.run("hyzer", "season", "add", "Autumn league", "--from", str(today - datetime.timedelta(days=60)),
              "--to", str(today + datetime.timedelta(days=60)), data=world.device_data)
    table = json.loads("\n".join(world.run("hyzer", "season", "standings", "--json", data=world.device_data)))
    want = [(r["position"], r["player"], r["value"]) for r in table["table"]]
    check(len(want) >= 30, f"the season has {len(want)} players, not the night's 30 and the league's")
    check(wait_for(lambda: season_rows(driver) == want, 10),
          f"the season shows {season_rows(driver)[:4]}…, the device computes {want[:4]}…")
    title = driver.execute_script("return document.querySelector('.season .course').textContent")
    check(title == "Season · Autumn league", f"the season's title is {title!r}")
    more = driver.execute_script("return document.querySelector('.season .more')?.textContent ?? ''")
    check(more.endswith(f"of {len(want)}"), f"the 1080p board does not page the season: page line {more!r}")
    if screenshots:
        driver.save_screenshot(os.path.join(screenshots, "board-season-tv.png"))
    print(f"live board: the season's table of {len(want)} players between rounds, as the device computes it ({more})")


def net_night(world, driver, screenshots):
    names = ",".join(f"Player {i:02d}" for i in range(1, 13))
    event = world.run("hyzer", "event", "create", "Net league", "--course", "Ridgeback · Championship", "--players",
                      names, "--draw", "random", "--seed", "37", "--net", data=world.device_data)[-1]
    shown = json.loads("\n".join(world.run("hyzer", "event", "show", event, "--json", data=world.device_data)))
    for card in shown["cards"]:
        for index, player in enumerate(card["players"]):
            for k in range(3):
                world.run("hyzer", "score", card["round"], player, str((card["startHole"] - 1 + k) % 18 + 1),
                          str(2 + (index + k) % 3), "--no-sync", data=world.device_data)
    world.run("hyzer", "sync", data=world.device_data)
    shown = json.loads("\n".join(world.run("hyzer", "event", "show", event, "--json", data=world.device_data)))
    check(shown["rankedByNet"], "the device's night is not ranked by net")
    netted = [r for r in shown["standings"] if r.get("net")]
    check(len(netted) == 12, f"{len(netted)} of the 12 have a handicap from the six weeks before")
    want = [(r["position"], r["card"], r["name"], f"thru {r['thru']}", r["net"]) for r in shown["standings"]]

    def rows():
        found = driver.execute_script(
            "return [...document.querySelectorAll('.night.net .row:not(.more)')].map(li =>"
            " ['.position', '.card', '.name', '.progress', '.to-par'].map(c => li.querySelector(c).textContent))")
        return [tuple(r) for r in found]

    check(wait_for(lambda: rows() == want, 10), f"the net night shows {rows()[:4]}…, the device computes {want[:4]}…")
    tag = driver.execute_script("return document.querySelector('.night.net .course .net-tag')?.textContent ?? ''")
    check(tag == "net", f"the night's header says {tag!r}, not \"net\"")
    first = shown["standings"][0]
    title = driver.execute_script("return document.querySelector('.night.net .row .to-par').title")
    gross = "E" if first["toPar"] == 0 else f"{first['toPar']:+d}"
    check(title.startswith(f"{gross} gross, handicap "), f"the leader's net says {title!r} of how it was made")
    if screenshots:
        time.sleep(1.5)  # past the rows' "changed" flash
        driver.save_screenshot(os.path.join(screenshots, "board-net-night-tv.png"))
    print(f"live board: a league night of 12 ranked by net, \"net\" in its header, as the device ranks it")


if __name__ == "__main__":
    sys.exit(main())
