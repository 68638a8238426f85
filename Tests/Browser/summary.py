#!/usr/bin/env python3
"""A finished round's summary page in a real headless Chromium, against a real hyzer-server
(issue 11 item 3).

  1. The kiosk (a `hyzer` device) plays a round out, finishes it and asks for its summary link, as its
     summary card does for the QR code (`hyzer round summary-link`).
  2. The page, on a phone held upright, shows the round's standings as the kiosk ranks them
     (`hyzer standings` on the kiosk's own store) and each player's card hole by hole.
  3. "Save as PNG" downloads the card as a PNG, 1080 px wide.
  4. Revoked with the group's board links (`hyzer-server group board-unlink`), the link
     says so and shows nothing.
  5. (Run before 4.) A league night's card (issue 36): its link opens the night's summary,
     every card ranked together with the side games, and the card's own scorecard.

Run by `make test` (make browser-test): python summary.py --bin .build/debug
With --screenshots DIR it also saves the page for docs/screens.
"""

import argparse
import json
import os
import shutil
import struct
import sys
import tempfile
import time

from selenium.webdriver.common.by import By

from common import LAN_NAME, reexec_with_hosts, Fail, World, check, chromium, cli_standings, summary_rows, wait_for


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--screenshots")
    args = parser.parse_args()
    status = reexec_with_hosts([LAN_NAME])  # the page by its LAN name, not 127.0.0.1
    if status is not None:
        return status
    work = tempfile.mkdtemp(prefix="hyzer-summary-")
    world = World(os.path.abspath(args.bin), work)
    kiosk = world.device_data
    phone = None
    try:
        round_id = world.start_group("Saturday Skins", "Clubhouse kiosk", players=5)
        # 1. The demo round played out (two players stop early: DNF), finished, synced, and
        # its link asked for.
        for index, (_, name, progress, _) in enumerate(cli_standings(world, round_id, data=kiosk)):
            thru = int(progress.split()[1]) if progress.startswith("thru ") else 18
            last = 18 if index < 3 else thru + 2
            for hole in range(thru + 1, last + 1):
                world.run("hyzer", "score", round_id, "--no-sync", name, str(hole), str(2 + (hole * 7 + index) % 3),
                          data=kiosk)
        world.run("hyzer", "round", "finish", round_id, data=kiosk)
        # Issue 35: a score found wrong at the car park, corrected after the finish.
        leader = cli_standings(world, round_id, data=kiosk)[0][1]
        world.run("hyzer", "round", "correct", round_id, leader, "1", "7", data=kiosk)
        link = world.run("hyzer", "round", "summary-link", round_id, data=kiosk)[-1]
        check(link.startswith(world.base + "/s/hzs_"), f"summary-link printed {link!r}")

        # 2. The page on a phone.
        phone = chromium(390, 844)
        phone.get(link)
        want = [(p, n, t) for (p, n, _, t) in cli_standings(world, round_id, data=kiosk)]
        check(wait_for(lambda: summary_rows(phone) == want, 10),
              f"the summary ranks {summary_rows(phone)}, the kiosk {want}")
        course = phone.find_element(By.ID, "course").text
        check(course and course != "Round summary", f"the page's title is {course!r}")
        card_rows = phone.execute_script("return document.querySelectorAll('#scorecard tbody tr').length")
        check(card_rows == 1 + len(want), f"the scorecard has {card_rows} rows for par and {len(want)} players")
        headers = phone.execute_script("return document.querySelectorAll('#scorecard thead th').length")
        check(headers in (10, 19), f"the scorecard has {headers} header cells (Hole + 9 or 18)")
        marked = phone.execute_script(
            "return [...document.querySelectorAll('#scorecard td.corrected')].map(td => td.textContent)")
        check(marked == ["7"], f"the corrected cell is marked once, with its new value: {marked}")
        note = phone.find_element(By.ID, "corrections").text
        check(note == "* One score was corrected after the finish.", f"the note under the card says {note!r}")
        if args.screenshots:
            os.makedirs(args.screenshots, exist_ok=True)
            time.sleep(0.5)
            phone.save_screenshot(os.path.join(args.screenshots, "summary.png"))

        # 3. Save as PNG.
        downloads = os.path.join(work, "downloads")
        os.makedirs(downloads)
        phone.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
        phone.find_element(By.ID, "png").click()
        saved = wait_for(lambda: [f for f in os.listdir(downloads) if f.endswith(".png")], 15)
        check(saved, f"no PNG was downloaded: {os.listdir(downloads)}")
        with open(os.path.join(downloads, saved[0]), "rb") as f:
            data = f.read()
        check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{saved[0]} is not a PNG")
        width, height = struct.unpack(">II", data[16:24])
        check(width == 1080 and height > 600, f"{saved[0]} is {width}×{height}")
        print(f"summary: the card saved as {saved[0]}, {width}×{height}, {len(data) // 1024} KiB")
        if args.screenshots:
            shutil.copy(os.path.join(downloads, saved[0]), os.path.join(args.screenshots, "summary-card.png"))

        # 5. A league night's card (issue 36): its summary is the night's.
        league_night(world, phone, args.screenshots)

        # 4. Revoked: the page says so, with nothing else on it.
        world.run("hyzer-server", "group", "board-unlink", "Saturday Skins", data=world.server_data)
        phone.refresh()
        refused = wait_for(lambda: "unknown or was revoked" in phone.find_element(By.ID, "status").text, 10)
        check(refused, f"a revoked link shows {phone.find_element(By.ID, 'status').text!r}")
        check(summary_rows(phone) == [], "a revoked link still shows standings")
        print("summary: ok (the kiosk's standings and cards, a correction marked, Save as PNG, revocable)")
        return 0
    except Fail as failure:
        return world.report("summary", failure)
    finally:
        if phone:
            phone.quit()
        world.stop_server()
        shutil.rmtree(work, ignore_errors=True)


def league_night(world, phone, screenshots):
    """A night of 7 in two cards, card A finished: its summary link opens the night's summary,
    every card's players ranked as the device ranks them (`hyzer event show`), each with its
    card, the side games under them, and card A's own scorecard below."""
    kiosk = world.device_data
    names = [f"Night {i}" for i in range(1, 8)]
    for name in names:
        world.run("hyzer", "player", "add", name, data=kiosk)
    event = world.run("hyzer", "event", "create", "Thursday league", "--course", "Pine Hollow", "--players",
                      ",".join(names), "--draw", "random", "--seed", "7", "--skins", "field", "--ctp", "5",
                      data=kiosk)[-1]
    shown = json.loads("\n".join(world.run("hyzer", "event", "show", event, "--json", data=kiosk)))
    check(len(shown["cards"]) == 2, f"7 players drew {len(shown['cards'])} cards, not 2")
    card_a = shown["cards"][0]
    for index, player in enumerate(card_a["players"]):
        for hole in range(1, 19):
            world.run("hyzer", "score", card_a["round"], "--no-sync", player, str(hole), str(3 + (hole + index) % 2),
                      data=kiosk)
    card_b = shown["cards"][1]
    world.run("hyzer", "score", card_b["round"], "--no-sync", card_b["players"][0], str(card_b["startHole"]), "2",
              data=kiosk)
    world.run("hyzer", "event", "ctp", event, "5", card_a["players"][1], "--no-sync", data=kiosk)
    world.run("hyzer", "round", "finish", card_a["round"], data=kiosk)
    shown = json.loads("\n".join(world.run("hyzer", "event", "show", event, "--json", data=kiosk)))
    link = world.run("hyzer", "round", "summary-link", card_a["round"], data=kiosk)[-1]
    phone.get(link)
    want = [(r["position"], r["name"], "E" if r["toPar"] == 0 else f"{r['toPar']:+d}") for r in shown["standings"]]
    check(wait_for(lambda: summary_rows(phone) == want, 10),
          f"the night's summary ranks {summary_rows(phone)}, the device {want}")
    title = phone.find_element(By.ID, "course").text
    check(title == "Thursday league", f"the night's summary is titled {title!r}")
    cards = phone.execute_script(
        "return [...document.querySelectorAll('#rows .row')].map(li => li.querySelector('.card-tag').textContent)")
    check(cards == [f"card {r['card']}" for r in shown["standings"]], f"the rows' cards say {cards}")
    sides = phone.execute_script("return [...document.querySelectorAll('#sides li')].map(li => li.textContent)")
    check(f"Closest to the pin, hole 5: {card_a['players'][1]}" in sides, f"the side games say {sides}")
    check(any(line.startswith("Skins: ") for line in sides), f"no skins line among {sides}")
    status = phone.find_element(By.ID, "status").text
    check("still out" in status, f"card B is still out, and the page says {status!r}")
    heading = phone.find_element(By.ID, "card-title").text
    check(heading == "Card A · Pine Hollow", f"the scorecard is headed {heading!r}")
    card_rows = phone.execute_script("return document.querySelectorAll('#scorecard tbody tr').length")
    check(card_rows == 1 + len(card_a["players"]), f"card A's scorecard has {card_rows} rows")
    if screenshots:
        time.sleep(0.5)
        phone.save_screenshot(os.path.join(screenshots, "summary-league-night.png"))
    print(f"summary: a league night's card opens the night's summary ({len(want)} players, {len(sides)} side-game lines)")


if __name__ == "__main__":
    sys.exit(main())
