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

Run by `make test` (make browser-test): python live_board.py --bin .build/debug
With --screenshots DIR it also saves the board as a TV (1920x1080) and a phone (390x844)
would show it, for docs/screens.
"""

import argparse
import os
import shutil
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


if __name__ == "__main__":
    sys.exit(main())
