#!/usr/bin/env python3
"""A name typed on a phone for the kiosk (issue 32 item 6), end to end: a real hyzer-server,
the real kiosk (headless, its own services, a script for the knob) and a real headless
Chromium as the phone, on the LAN name, never 127.0.0.1.

  1. A kiosk in a group asks for a new player's name: besides the wheel it shows a QR code
     ("Type it on your phone"). The test reads the code off the kiosk's own snapshot with
     zbarimg, as a phone's camera would.
  2. The phone opens it: one text field, what the name is for ("New player's name"), no
     joining. It types a name in two scripts and sends it.
  3. The name appears on the kiosk, to be confirmed with a press; pressed, the kiosk
     registers the player (its store, and the server after a sync).
  4. The code took its one name: the same page refuses a second, and says why.

Run by `make test` (make browser-test): python phone_name.py --bin .build/debug
With --screenshots DIR (docs/screens/web) it also saves the phone's page there, and the kiosk
with the name waiting for its press in the folder above (docs/screens).
"""

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

from selenium.webdriver.common.by import By

from common import LAN_NAME, Fail, World, check, chromium, reexec_with_hosts, wait_for

NAME = "Zoë 김"

SCRIPT = """\
expect-screen board
press                                   # start a round
expect-screen setup-course
press                                   # the first course; no players yet: a new player's name
expect-screen name-entry
wait-for name-entry-phone-ready 60      # the QR code is up
snapshot qr
wait-for name-entry-phone-arrived 120   # the phone sent the name
snapshot arrived
press                                   # confirm it
expect-screen setup-players
snapshot registered
"""


def decode_qr(png):
    done = subprocess.run(["zbarimg", "--quiet", "--raw", png], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--screenshots")
    args = parser.parse_args()
    status = reexec_with_hosts([LAN_NAME])
    if status is not None:
        return status
    work = tempfile.mkdtemp(prefix="hyzer-phone-name-")
    world = World(os.path.abspath(args.bin), work)
    kiosk = phone = None
    try:
        world.admin = world.run("hyzer-server", "group", "create", "Saturday Skins", data=world.server_data)[-1]
        world.start_server()
        world.run("hyzer", "init", data=world.device_data)
        world.run("hyzer", "device", "enroll", "--server", world.base, "--group-token", world.admin,
                  "--name", "Clubhouse kiosk", data=world.device_data)
        script = os.path.join(work, "script.txt")
        with open(script, "w") as f:
            f.write(SCRIPT)
        shots = os.path.join(work, "shots")
        log = open(os.path.join(work, "kiosk.log"), "w")
        kiosk = subprocess.Popen(
            [os.path.join(world.bin, "hyzer-kiosk"), "--data", world.device_data, "--headless", "--size", "1280x720",
             "--script", script, "--snapshots", shots],
            stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, SDL_VIDEODRIVER="dummy"))

        # 1. The kiosk's QR code, read off its screen.
        def qr_shot():
            found = [f for f in os.listdir(shots) if f.endswith("-qr.png")] if os.path.isdir(shots) else []
            return os.path.join(shots, found[0]) if found else None
        shot = wait_for(qr_shot, 90, interval=0.2)
        check(shot, f"the kiosk drew no QR code: {open(log.name).read()[-2000:]}")
        url = decode_qr(shot)
        check(url and url.startswith(world.base + "/n/"), f"the kiosk's QR code reads {url!r}, not a {world.base}/n/ link")

        # 2. The phone: one field, what it is for, any script.
        phone = chromium(390, 844)
        phone.get(url)
        check(wait_for(lambda: phone.find_element(By.ID, "label").text == "New player's name", 10),
              f"the phone's page asks for {phone.find_element(By.ID, 'label').text!r}")
        check(phone.execute_script("return window.isSecureContext") is False, "the LAN page is a secure context?")
        phone.find_element(By.ID, "name").send_keys(NAME)
        phone.find_element(By.ID, "go").click()
        check(wait_for(lambda: "Sent" in phone.find_element(By.ID, "message").text, 10),
              f"sending the name says {phone.find_element(By.ID, 'message').text!r}")
        if args.screenshots:
            os.makedirs(args.screenshots, exist_ok=True)
            phone.save_screenshot(os.path.join(args.screenshots, "phone-name.png"))

        # 3. The kiosk shows it, a press confirms it, and the player is registered.
        try:
            code = kiosk.wait(timeout=150)
        except subprocess.TimeoutExpired:
            raise Fail("the kiosk's script did not finish within 150 s")
        check(code == 0, f"the kiosk's script failed ({code}): {open(log.name).read()[-2000:]}")
        with sqlite3.connect(os.path.join(world.device_data, "hyzer.sqlite")) as db:
            players = [row[0] for row in db.execute("SELECT display_name FROM players")]
        check(NAME in players, f"the kiosk registered {players}, not {NAME!r}")
        if args.screenshots:
            # The kiosk with the name waiting for its press, beside the other kiosk screens.
            arrived = [f for f in os.listdir(shots) if f.endswith("-arrived.png")]
            shutil.copy(os.path.join(shots, arrived[0]),
                        os.path.join(args.screenshots, "..", "name-entry-from-phone.png"))

        # 4. One name per code.
        phone.refresh()
        check(wait_for(lambda: "already used" in phone.find_element(By.ID, "message").text, 10),
              f"the spent code's page says {phone.find_element(By.ID, 'message').text!r}")
        check(not phone.find_element(By.ID, "go").is_enabled(), "the spent code's page still offers to send")
        print(f"phone name: ok (the kiosk's QR code read off its screen, {NAME!r} typed on a phone over "
              f"{world.base}, confirmed with a press and registered; the code took one name)")
        return 0
    except Fail as failure:
        return world.report("phone name", failure)
    finally:
        if phone:
            phone.quit()
        if kiosk and kiosk.poll() is None:
            kiosk.kill()
        world.stop_server()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
