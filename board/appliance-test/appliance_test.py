#!/usr/bin/env python3
"""The emulated appliance test (issue 13 item 5): the kiosk's Debian packages installed into a
minimal Debian 12 image, booted in QEMU with a virtual display, exactly as on a Pi: systemd
starts the kiosk on tty1 with KMSDRM.

  1. Power cuts: the image boots straight into a writer (the store's own code) that prints
     each acknowledged score id on the serial console; QEMU is killed at a random moment, so
     the guest loses its page cache as in a real power cut; the disk must then hold every
     acknowledged id and pass PRAGMA integrity_check. A negative control does the same with
     the store's fsync turned off (a test-only switch) and must find lost scores.
  2. Boot to board: a full boot; QEMU's screendump must show the board, compared with the
     headless snapshot of the same data, without any input.
  3. Watchdog: the kiosk is frozen (SIGSTOP); systemd must restart it, and the board must be
     back on the screen.
  4. (full form) Memory: the kiosk's PSS by mapping and its idle CPU after a minute.

Prints one JSON line of figures last. Where it cannot run (not root, QEMU or debootstrap
missing, not x86_64) it skips, and where gpio-sim cannot be built for the image's kernel the
knob stage skips: each says `SKIPPED: <stage>: <why>` on standard error and adds that line to
the file $HYZER_SKIP_LOG names (`make test` counts them). Uses only the standard library (it
runs before any venv exists).
"""

import argparse
import contextlib
import hashlib
import json
import os
import platform
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
ACK = re.compile(rb"^acknowledged ([0-9a-f]{32})\r?$", re.M)
DISTROS = ("bookworm", "trixie")
# Per ARCH: the emulator, its machine (before the common arguments) and display (after), the
# serial console the guest writes to, the user-mode emulator its chroot steps run under on an
# x86_64 host (build-base registers it with binfmt_misc), and how much longer than on amd64
# the guest takes under TCG (the fixed waits are multiplied by it). arm64 is QEMU's `virt`
# board: PL011 serial (ttyAMA0), virtio-gpu for KMS (virtio_gpu's connector Virtual-1 at
# 1280x800, as bochs-drm's on amd64), the disk on virtio-blk-pci, no firmware (-kernel).
MACHINES = {
    "amd64": {"qemu": "qemu-system-x86_64", "machine": [], "display": ["-vga", "std"], "console": "ttyS0",
              "user_emulator": None, "slowdown": 1},
    "arm64": {"qemu": "qemu-system-aarch64", "machine": ["-M", "virt", "-cpu", "cortex-a72"],
              "display": ["-device", "virtio-gpu-pci"], "console": "ttyAMA0",
              "user_emulator": "qemu-aarch64-static", "slowdown": 3},
}


def log(text):
    print(f"appliance: {text}", file=sys.stderr, flush=True)


def skipped(stage, why):
    """A stage that cannot run here: one `SKIPPED: <stage>: <why>` line on standard error, and
    in $HYZER_SKIP_LOG when it is set (`make test` counts the lines at its end)."""
    line = f"SKIPPED: {stage}: {why}"
    print(line, file=sys.stderr, flush=True)
    skip_log = os.environ.get("HYZER_SKIP_LOG")
    if skip_log:
        with open(skip_log, "a") as f:
            f.write(line + "\n")


def run(args, **kwargs):
    return subprocess.run(args, check=True, **kwargs)


class Guest:
    """One QEMU run: the serial console to a file, QMP on a socket for screendumps."""

    def __init__(self, work, disk, kernel, initrd, append, name, kvm=False, arch="amd64"):
        self.serial = work / f"{name}.serial"
        self.qmp_path = work / f"{name}.qmp"
        self.serial.write_bytes(b"")
        machine = MACHINES[arch]
        args = [
            machine["qemu"], *machine["machine"], "-m", "1024", "-smp", "2",
            "-kernel", str(kernel), "-initrd", str(initrd), "-append", append,
            "-drive", f"file={disk},format=raw,if=virtio,cache=writeback",
            "-serial", f"file:{self.serial}", *machine["display"], "-display", "none",
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off", "-nic", "none", "-no-reboot",
        ]
        args += ["-enable-kvm", "-cpu", "host"] if kvm else ["-accel", "tcg"]
        self.started = time.monotonic()
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def output(self):
        return self.serial.read_bytes()

    def wait_for(self, pattern, timeout):
        """The first match of `pattern` (bytes regex) on the console, or an error after `timeout` s."""
        deadline = time.monotonic() + timeout
        expression = re.compile(pattern, re.M)
        while time.monotonic() < deadline:
            match = expression.search(self.output())
            if match:
                return match
            if self.process.poll() is not None:
                raise RuntimeError(f"QEMU ended ({self.process.returncode}): {self.process.stderr.read().decode()[-500:]}")
            time.sleep(0.2)
        tail = self.output()[-1500:].decode(errors="replace")
        raise RuntimeError(f"no {pattern!r} on the console within {timeout} s; it ends:\n{tail}")

    def qmp(self, command, **arguments):
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(30)
            s.connect(str(self.qmp_path))
            stream = s.makefile("rwb")

            def read():
                while True:
                    message = json.loads(stream.readline())
                    if "event" not in message:
                        return message

            read()  # the greeting
            for request in ({"execute": "qmp_capabilities"}, {"execute": command, "arguments": arguments}):
                stream.write(json.dumps(request).encode() + b"\n")
                stream.flush()
                reply = read()
                if "error" in reply:
                    raise RuntimeError(f"QMP {request['execute']}: {reply['error']}")
            return reply.get("return")

    def screendump(self, png):
        ppm = png.with_suffix(".ppm")
        self.qmp("screendump", filename=str(ppm))
        run(["convert", str(ppm), str(png)])
        ppm.unlink()
        return png

    def cut(self):
        """The power cut: SIGKILL, no shutdown, no flush."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process.poll() is None:
            self.cut()


def image(args, work):
    """The base tree (cached), the packages installed into a copy of it, the test's files, and
    an ext4 disk image made from the tree. Returns (disk, kernel, initrd, tree)."""
    base = Path(subprocess.run([str(HERE / "build-base"), "--distro", args.distro, "--arch", args.arch, args.cache],
                               check=True, capture_output=True, text=True).stdout.strip())
    args.base = base
    tree = work / "tree"
    log(f"copying the base tree {base}")
    run(["cp", "-a", "--reflink=auto", str(base), str(tree)])
    debs = tree / "tmp/debs"
    debs.mkdir(parents=True)
    for deb in args.debs:
        shutil.copy(deb, debs)
    shutil.copy("/etc/resolv.conf", tree / "etc/resolv.conf")
    with proc_mounted(tree):
        install(args, tree)
    # Installed as a Pi owner would have it: nobody has run anything yet.
    args.fresh_disk = work / "fresh.img"
    log("making the first boot's disk image, as installed (mkfs.ext4 -d)")
    make_disk(tree, args.fresh_disk)
    with proc_mounted(tree):
        seed(tree)
    disk = work / "disk.img"
    log("making the disk image (mkfs.ext4 -d)")
    make_disk(tree, disk)
    kernel, initrd = work / "vmlinuz", work / "initrd.img"
    shutil.copy(tree / "boot/vmlinuz", kernel)
    shutil.copy(tree / "boot/initrd.img", initrd)
    return disk, kernel, initrd, tree


@contextlib.contextmanager
def proc_mounted(tree):
    """/proc in a tree the test chroots into: Swift reads its arguments from /proc/self/cmdline,
    and apt's maintainer scripts look there too."""
    run(["mount", "-t", "proc", "proc", str(tree / "proc")])
    try:
        yield
    finally:
        run(["umount", str(tree / "proc")])


def make_disk(tree, path):
    """An ext4 disk image holding `tree` (mkfs.ext4 -d: no mount, no loop device)."""
    run(["mkfs.ext4", "-q", "-F", "-L", "root", "-d", str(tree), str(path), "4G"])


def first_boot(args, work, kernel, initrd, figures):
    """The image as installed, booted once (issue 34): no `hyzer init`, no shell. The kiosk must
    make its store itself, load the shipped courses and show the empty board, which is what a
    headless kiosk over an empty data directory draws."""
    append = board_command_line(args) + " systemd.setenv=HYZER_PROBE_FIRST_BOOT=1"
    guest = Guest(work, args.fresh_disk, kernel, initrd, append, "first-boot", kvm=args.kvm, arch=args.arch)
    try:
        courses = guest.wait_for(rb"HYZER-PROBE first-boot courses=(\d+)", args.boot_timeout)
        screen = guest.screendump(work / "first-boot.png")
    finally:
        (work / "first-boot.console").write_bytes(guest.output())
        guest.stop()
    size = image_size(screen)
    empty = work / "first-boot-reference"
    shutil.rmtree(empty, ignore_errors=True)
    figures["first_boot_courses"] = int(courses.group(1))
    figures["shipped_courses"] = len(json.loads((REPO / "assets/courses.json").read_text()))
    figures["first_boot_vs_headless_rmse"] = round(difference(screen, render_board(args, work, empty / "data", size)), 4)
    log(f"first boot: {figures['first_boot_courses']} courses in the kiosk's new store, the empty board "
        f"(RMSE {figures['first_boot_vs_headless_rmse']} against a headless kiosk over no data)")


def install(args, tree):
    """The packages, the test's settings and its helpers, into `tree` (the round: `seed`)."""
    debs = tree / "tmp/debs"
    log("installing the packages with apt, without Recommends (their Depends bring the runtime: SDL2, libdrm, libgpiod...)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    chroot = ["chroot", str(tree)]
    run(chroot + ["apt-get", "update", "-qq"], env=env)
    run(chroot + ["sh", "-c", "apt-get install -y -qq --no-install-recommends /tmp/debs/*.deb"], env=env)
    shutil.rmtree(debs)
    # The test's settings, its seeded round, and its helpers (not part of the product). At
    # debug level the kiosk logs each knob event, which the GPIO stage counts.
    gpio = gpio_modules(args, tree)
    settings = 'log_level = "debug"\n'
    if gpio:
        settings += '[knob]\ninput = "gpiod"\n'
        modules = tree / "usr/local/lib/hyzer-test"
        modules.mkdir(parents=True)
        for module in gpio:
            shutil.copy(module, modules)
        shutil.copy(HERE / "guest/hyzer-gpio-sim-setup", tree / "usr/local/sbin/")
        shutil.copy(HERE / "guest/hyzer-gpio-sim.service", tree / "etc/systemd/system/")
        run(chroot + ["systemctl", "enable", "hyzer-gpio-sim.service"], capture_output=True)
    (tree / "etc/hyzer/kiosk.conf").write_text(settings)
    for name in ("hyzer-cut-init", "hyzer-appliance-probe"):
        shutil.copy(HERE / "guest" / name, tree / "usr/local/sbin" / name)
    shutil.copy(HERE / "guest/hyzer-appliance-probe.service", tree / "etc/systemd/system/")
    run(chroot + ["systemctl", "enable", "hyzer-appliance-probe.service"], capture_output=True)
    environment = f"HYZER_PROBE_MEMORY={1 if args.memory else 0}\n"
    if console(args) != "ttyS0":
        environment += f"HYZER_CONSOLE=/dev/{console(args)}\n"
    (tree / "etc/hyzer-appliance-probe.env").write_text(environment)
    run(chroot + ["apt-get", "clean"])


def seed(tree):
    """The test's round: the seeded courses and a demo round of six, as the stages after the
    first boot expect (the first boot itself runs on an image made before this)."""
    chroot = ["chroot", str(tree)]
    run(chroot + ["/usr/bin/hyzer", "init", "--data", "/var/lib/hyzer"], capture_output=True)
    run(chroot + ["/usr/bin/hyzer", "demo", "--data", "/var/lib/hyzer", "--players", "6"], capture_output=True)
    if not (tree / "var/lib/hyzer/hyzer.sqlite").exists():
        raise RuntimeError("hyzer init made no database in the image")
    run(chroot + ["chown", "-R", "hyzer:hyzer", "/var/lib/hyzer"])


def console(args):
    return MACHINES[args.arch]["console"]


def slow(args, seconds):
    """A fixed wait, longer where the guest is slower under TCG (arm64)."""
    return seconds * MACHINES[args.arch]["slowdown"]


def gpio_modules(args, tree):
    """gpio-sim.ko and irq_sim.ko for the image's kernel (gpio-sim/build-module), or [] and a
    SKIPPED line for the knob stage when they cannot be built here; the matching headers are
    installed if missing. Debian 12 amd64's are built on the host (its headers and
    linux-source-6.1); any other distro or arch's in a copy of the base tree (gpio_modules_in_tree)."""
    release = sorted(p.name for p in (tree / "lib/modules").iterdir())[-1]
    if (args.distro, args.arch) != ("bookworm", "amd64"):
        return gpio_modules_in_tree(args, tree, release)
    if not Path(f"/usr/src/linux-headers-{release}").exists() or not Path("/usr/src/linux-source-6.1.tar.xz").exists():
        log(f"installing linux-headers-{release} and linux-source-6.1 for gpio-sim")
        subprocess.run(["apt-get", "install", "-y", "-qq", f"linux-headers-{release}", "linux-source-6.1"],
                       capture_output=True, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    out = tree.parent / "gpio-sim"
    built = subprocess.run([str(HERE / "gpio-sim/build-module"), release, str(out)], capture_output=True, text=True)
    if built.returncode != 0:
        skipped(f"{args.stage} gpio-sim", f"gpio-sim could not be built for the image's kernel {release}: "
                f"{built.stderr.strip()[-300:] or f'build-module exited {built.returncode}'}")
        return []
    return [out / "irq_sim.ko", out / "gpio-sim.ko"]


def gpio_modules_in_tree(args, tree, release):
    """The modules for a kernel the host has neither headers nor compiler for (Debian 13's
    6.12, built with gcc-14; an arm64 kernel): built in a copy of the base tree with that
    release's headers, linux-source and compiler (under qemu-user for arm64, a few minutes),
    and cached beside the base tree, keyed by the release and the build's files."""
    digest = hashlib.sha256()
    for path in sorted((HERE / "gpio-sim").iterdir()):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    cached = Path(args.cache) / f"gpio-sim-{release}-{digest.hexdigest()[:12]}"
    modules = [cached / "irq_sim.ko", cached / "gpio-sim.ko"]
    if all(module.exists() for module in modules):
        return modules
    version = ".".join(release.split(".")[:2])
    build = tree.parent / "gpio-sim-build"
    log(f"building gpio-sim for {release} in a copy of the base tree (linux-headers-{release}, linux-source-{version})")
    run(["cp", "-a", "--reflink=auto", str(args.base), str(build)])
    shutil.copy("/etc/resolv.conf", build / "etc/resolv.conf")
    try:
        with proc_mounted(build):
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            installed = subprocess.run(
                ["chroot", str(build), "sh", "-c", "apt-get update -qq && apt-get install -y -qq --no-install-recommends "
                 f"linux-headers-{release} linux-source-{version} make patch xz-utils"],
                capture_output=True, text=True, env=env)
            built = installed if installed.returncode else subprocess.run(
                [str(HERE / "gpio-sim/build-module"), release, str(cached) + ".tmp", str(build)],
                capture_output=True, text=True)
    finally:
        shutil.rmtree(build, ignore_errors=True)
    if built.returncode != 0:
        shutil.rmtree(str(cached) + ".tmp", ignore_errors=True)
        skipped(f"{args.stage} gpio-sim", f"gpio-sim could not be built for the image's kernel {release}: "
                f"{built.stderr.strip()[-300:] or f'exit {built.returncode}'}")
        return []
    shutil.rmtree(cached, ignore_errors=True)
    os.replace(str(cached) + ".tmp", cached)
    return modules


def dump_store(disk, into):
    """The kiosk's database as the disk holds it after a cut (the WAL too), read with debugfs:
    no boot, no mount. The file system's journal is replayed first, as the next mount would
    (a WAL that grew since the last commit of ext4's journal is only in the journal)."""
    replay = subprocess.run(["e2fsck", "-y", "-E", "journal_only", str(disk)], capture_output=True, text=True)
    if replay.returncode not in (0, 1):
        raise RuntimeError(f"e2fsck could not replay the journal ({replay.returncode}): {replay.stdout}{replay.stderr}")
    into.mkdir(parents=True, exist_ok=True)
    for name in ("hyzer.sqlite", "hyzer.sqlite-wal"):
        target = into / name
        if target.exists():
            target.unlink()
        subprocess.run(
            ["debugfs", "-R", f"dump -p /var/lib/hyzer/{name} {target}", str(disk)],
            check=True, capture_output=True)
    return into / "hyzer.sqlite"


def check_store(database):
    """(integrity_check's answer, the set of score event ids) of a dumped database.

    A cut can leave a store malformed (the control's, with fsync off, does now and then:
    sqlite3 exits 11). That is an answer to report, not a reason to stop: the answer is
    sqlite3's error, and a table that cannot be read counts as holding nothing, so every
    acknowledged score in it counts as lost."""
    integrity = subprocess.run(["sqlite3", str(database), "PRAGMA integrity_check"], capture_output=True, text=True)
    answer = integrity.stdout.strip()
    if integrity.returncode != 0:
        answer = f"sqlite3 exited {integrity.returncode}: {(integrity.stderr or answer).strip()[:200]}"
    ids = subprocess.run(
        ["sqlite3", str(database), "SELECT lower(hex(id)) FROM score_events"], capture_output=True, text=True)
    # Partial output of a failed read is not trusted: a row it printed may sit on a bad page.
    return answer, set(ids.stdout.split()) if ids.returncode == 0 else set()


def cuts(args, work, disk, kernel, initrd, count, unsafe, label):
    """`count` power cuts on `disk`. Returns the per-cut results."""
    append = f"root=/dev/vda rw console={console(args)} quiet loglevel=1 init=/usr/local/sbin/hyzer-cut-init"
    if console(args) != "ttyS0":
        # hyzer-cut-init is PID 1: the kernel passes unknown key=value words to its environment.
        append += f" HYZER_CONSOLE=/dev/{console(args)}"
    if unsafe:
        # The kernel passes unknown key=value words to init's environment.
        append += " HYZER_UNSAFE_SYNCHRONOUS_OFF=1"
    results = []
    rng = random.Random(args.seed + (1000 if unsafe else 0))
    for n in range(count):
        guest = Guest(work, disk, kernel, initrd, append, f"{label}-{n}", kvm=args.kvm, arch=args.arch)
        try:
            guest.wait_for(rb"HYZER-CUT booted", args.boot_timeout)
            guest.wait_for(rb"^acknowledged ", slow(args, 120))
            time.sleep(rng.uniform(0.5, args.write_seconds))
            guest.cut()
        finally:
            guest.stop()
        acknowledged = set(m.decode() for m in ACK.findall(guest.output()))
        integrity, present = check_store(dump_store(disk, work / f"{label}-{n}-store"))
        missing = acknowledged - present
        result = {"acknowledged": len(acknowledged), "missing": len(missing), "integrity": integrity,
                  "boot_s": round(time.monotonic() - guest.started, 1)}
        log(f"{label} cut {n + 1}/{count}: {result}")
        results.append(result)
    return results


def snapshot(args, work, disk, size):
    """The headless kiosk's board for the same data, at the screen's size, and that data's
    directory (to draw the board at another size)."""
    store = dump_store(disk, work / "snapshot-store")
    return render_board(args, work, store.parent, size), store.parent


def render_board(args, work, data, size):
    """The board as the headless kiosk draws it over the data directory `data`."""
    script = work / "board.txt"
    script.write_text("expect-screen board\nwait 2000\nsnapshot board\n")
    shots = work / "snapshot"
    shutil.rmtree(shots, ignore_errors=True)
    run([str(Path(args.bin) / "hyzer-kiosk"), "--data", str(data), "--headless", "--size", f"{size[0]}x{size[1]}",
         "--script", str(script), "--snapshots", str(shots)], capture_output=True)
    return sorted(shots.glob("*-board.png"))[-1]


def image_size(png):
    out = subprocess.run(["identify", "-format", "%w %h", str(png)], check=True, capture_output=True, text=True).stdout
    return tuple(int(x) for x in out.split())


def difference(a, b):
    """ImageMagick's normalised RMSE between two images of one size (0: the same)."""
    out = subprocess.run(["compare", "-metric", "RMSE", str(a), str(b), "null:"], capture_output=True, text=True)
    return float(re.search(r"\(([0-9.e-]+)\)", out.stderr).group(1))


def mean_brightness(png):
    out = subprocess.run(["convert", str(png), "-colorspace", "gray", "-format", "%[fx:mean]", "info:"],
                         check=True, capture_output=True, text=True).stdout
    return float(out)


def board_command_line(args):
    """The kernel's command line of a boot to the board, as board/appliance.md sets it on a Pi."""
    return (f"root=/dev/vda rw console={console(args)} quiet loglevel=3 consoleblank=0 vt.global_cursor_default=0"
            " systemd.show_status=0")


def boot_to_board(args, work, disk, kernel, initrd, figures):
    guest = Guest(work, disk, kernel, initrd, board_command_line(args), "boot", kvm=args.kvm, arch=args.arch)
    try:
        ready = guest.wait_for(rb"HYZER-PROBE ready uptime=([0-9.]+) unit_start_us=(\d+) ready_us=(\d+)", args.boot_timeout)
        powered_on_to_ready = time.monotonic() - guest.started
        uptime, start_us, ready_us = float(ready.group(1)), int(ready.group(2)), int(ready.group(3))
        time.sleep(1)  # the probe's pause covers this; the board has been up since READY=1
        screen = guest.screendump(work / "boot.png")
        analyze = guest.wait_for(rb"HYZER-PROBE analyze ([^\r\n]*)", slow(args, 120)).group(1).decode()
        figures["power_on_to_board_s"] = round(powered_on_to_ready, 1)
        figures["guest_uptime_at_board_s"] = uptime
        figures["kiosk_unit_start_to_first_frame_s"] = round((ready_us - start_us) / 1e6, 2)
        figures["systemd_analyze"] = analyze
        size = image_size(screen)
        reference, reference_data = snapshot(args, work, disk, size)
        figures["screen_size"] = f"{size[0]}x{size[1]}"
        figures["screen_mean"] = round(mean_brightness(screen), 3)
        figures["screen_vs_headless_rmse"] = round(difference(screen, reference), 4)
        shutil.copy(screen, work / "appliance-boot.png")
        if args.screenshot:
            run(["convert", str(screen), "-strip", str(args.screenshot)])
        log(f"board after {powered_on_to_ready:.1f} s (kiosk's share {figures['kiosk_unit_start_to_first_frame_s']} s); {analyze}")

        frozen = guest.wait_for(rb"HYZER-PROBE freeze pid=(\d+) uptime=([0-9.]+)", slow(args, 120))
        back = guest.wait_for(
            rb"HYZER-PROBE restarted pid=(\d+) uptime=([0-9.]+) restarts=\d+ timeout_at=([0-9.]*) exited_at=([0-9.]*)"
            rb" start_us=(\d+) ready_us=(\d+)", slow(args, 120))
        freeze_at = float(frozen.group(2))
        figures["watchdog_freeze_to_board_s"] = round(float(back.group(2)) - freeze_at, 1)
        if back.group(3) and back.group(4):
            # freeze → systemd's timeout → the process gone → started again → first frame
            timeout_at, exited_at = float(back.group(3)), float(back.group(4))
            start_at, ready_at = int(back.group(5)) / 1e6, int(back.group(6)) / 1e6
            figures["watchdog_split_s"] = {
                "detect": round(timeout_at - freeze_at, 1), "kill": round(exited_at - timeout_at, 1),
                "restart_delay": round(start_at - exited_at, 1), "start_to_first_frame": round(ready_at - start_at, 1)}
        time.sleep(1)
        again = guest.screendump(work / "after-watchdog.png")
        figures["after_watchdog_vs_headless_rmse"] = round(difference(again, reference), 4)
        log(f"frozen kiosk restarted by the watchdog, board back after {figures['watchdog_freeze_to_board_s']} s: {figures.get('watchdog_split_s')}")

        # The panel unplugged and back, before the knob's stage (the screen is the board):
        # the same screen as before, from the same process; back at another size (trixie's
        # bochs-drm offers only its fallback modes then), the board laid out for that size,
        # as the headless kiosk draws it there.
        guest.wait_for(rb"HYZER-PROBE unplugging pid=(\d+)", slow(args, 180))
        before = guest.screendump(work / "before-unplug.png")
        unplugged = guest.wait_for(rb"HYZER-PROBE unplugged pid=(\d+) connector=(\S+)", slow(args, 60))
        dark = guest.screendump(work / "unplugged.png")
        replugged = guest.wait_for(
            rb"HYZER-PROBE replugged pid=(\d+) connector=(\S+) lost=(\d+) back=(\d+)", slow(args, 60))
        back_on = guest.screendump(work / "replugged.png")
        back_size = image_size(back_on)
        expected = before if back_size == image_size(before) else render_board(args, work, reference_data, back_size)
        figures["unplugged_screen_mean"] = round(mean_brightness(dark), 3)
        figures["replugged_size"] = f"{back_size[0]}x{back_size[1]}"
        figures["replugged_vs_before_rmse"] = round(difference(back_on, expected), 4)
        figures["replug_same_process"] = unplugged.group(1) == replugged.group(1)
        figures["replug_log"] = {"lost": int(replugged.group(3)), "back": int(replugged.group(4))}
        log(f"panel unplugged (screen mean {figures['unplugged_screen_mean']}) and back at {figures['replugged_size']} "
            f"(RMSE {figures['replugged_vs_before_rmse']} against the screen before"
            f"{'' if expected == before else ', laid out for the new size'}), same process: {figures['replug_same_process']}")

        if args.gpio:
            knob = guest.wait_for(rb"HYZER-PROBE gpio detents=(\d+) presses=(\d+) buzzer_high=(\d+) samples=(\d+)", slow(args, 180))
            figures["gpio_detents"], figures["gpio_presses"], figures["gpio_buzzer_high_samples"], samples = (
                int(knob.group(i)) for i in (1, 2, 3, 4))
            figures["gpio_buzzer_samples"] = samples
            log(f"gpio-sim: {figures['gpio_detents']} detents, {figures['gpio_presses']} presses, buzzer high in "
                f"{figures['gpio_buzzer_high_samples']} of {samples} samples")

        if args.memory:
            pss = guest.wait_for(rb"HYZER-PROBE pss_kb=(\d+)", slow(args, 260))
            figures["kiosk_pss_mb"] = round(int(pss.group(1)) / 1024, 1)
            cpu = guest.wait_for(rb"HYZER-PROBE cpu ticks=(\d+) seconds=(\d+) hz=(\d+)", slow(args, 120))
            ticks, seconds, hz = (int(cpu.group(i)) for i in (1, 2, 3))
            figures["kiosk_idle_cpu_percent"] = round(100 * ticks / hz / seconds, 2)
            figures["kiosk_pss_by_mapping_kb"] = [
                f"{m.group(1).decode()} {m.group(2).decode()}"
                for m in re.finditer(rb"HYZER-PROBE mapping kb=(\d+) name=([^\r\n]*)", guest.output())]
            figures["kiosk_anonymous_ranges_kb"] = [
                f"{m.group(1).decode()} {m.group(2).decode()} huge {m.group(3).decode()}"
                for m in re.finditer(rb"HYZER-PROBE anonymous kb=(\d+) range=(\S+) huge_kb=(\d+)", guest.output())]
            huge = re.search(rb"HYZER-PROBE thp=(\S*) anon_huge_kb=(\d+)", guest.output())
            if huge:
                figures["thp"] = huge.group(1).decode()
                figures["kiosk_anon_huge_kb"] = int(huge.group(2))
            names = re.search(rb"HYZER-PROBE namelist ([^\r\n]*)", guest.output())
            figures["kiosk_name_list_log"] = names.group(1).decode(errors="replace") if names else None
            threads = re.search(rb"HYZER-PROBE threads=(\d+)", guest.output())
            figures["kiosk_threads"] = int(threads.group(1)) if threads else None
    finally:
        (work / "boot.console").write_bytes(guest.output())
        guest.stop()
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--debs", nargs="+", help="the hyzer-kiosk (and hyzer-server) .deb files")
    parser.add_argument("--bin", help="a build folder with hyzer-kiosk, for the headless reference")
    parser.add_argument("--can-run", action="store_true",
                        help="only say whether the test can run here (exit 0) or, as a SKIPPED line, why not (exit 3)")
    parser.add_argument("--stage", default="appliance-test", help="the name SKIPPED lines give this run (the make target)")
    parser.add_argument("--cuts", type=int, default=int(os.environ.get("CUTS", 20)))
    parser.add_argument("--control-cuts", type=int, default=3, help="negative control: cuts with fsync off")
    parser.add_argument("--memory", action="store_true", help="also measure PSS and idle CPU on the board (three minutes more)")
    parser.add_argument("--screenshot", type=Path, help="where to keep the boot screen as PNG")
    parser.add_argument("--cache", default=os.environ.get("HYZER_APPLIANCE_CACHE", "/var/cache/hyzer-appliance"))
    parser.add_argument("--work", type=Path, help="keep the run's files here (default: a temporary folder)")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("SEED", time.time())))
    parser.add_argument("--write-seconds", type=float, default=4.0, help="longest a writer runs before its cut")
    parser.add_argument("--boot-timeout", type=float, default=600)
    parser.add_argument("--kvm", action="store_true", help="use KVM (it hangs on these machines; TCG by default)")
    parser.add_argument("--distro", choices=DISTROS, default="bookworm",
                        help="the image's Debian: bookworm (12, the default) or trixie (13, today's Raspberry Pi OS)")
    parser.add_argument("--arch", choices=sorted(MACHINES), default="amd64",
                        help="the image's and the packages' arch: amd64 (the default) or arm64 (the Pi's, emulated: slower)")
    args = parser.parse_args()
    if args.kvm and args.arch != "amd64":
        parser.error("--kvm runs only the host's own arch (amd64)")

    machine = MACHINES[args.arch]
    tools = (machine["qemu"], "debootstrap", "mkfs.ext4", "e2fsck", "debugfs", "sqlite3", "convert", "chroot")
    missing = [tool for tool in tools + ((machine["user_emulator"],) if machine["user_emulator"] else ())
               if shutil.which(tool) is None]
    if machine["user_emulator"] and "binfmt_misc" not in Path("/proc/filesystems").read_text():
        # The foreign tree's chroot steps run its programs through binfmt_misc (build-base).
        missing.append("binfmt_misc (the kernel's, for qemu-user-static)")

    if missing or os.geteuid() != 0 or platform.machine() != "x86_64":
        why = (f"missing {', '.join(missing)}" if missing else "not root (debootstrap and chroot need it)"
               if os.geteuid() != 0 else f"the emulated appliance is x86_64 (this machine is {platform.machine()})")
        skipped(args.stage, why)
        print(json.dumps({"skipped": why}))
        return 3 if args.can_run else 0
    if args.can_run:
        return 0
    if not args.debs or not args.bin:
        parser.error("--debs and --bin are required")

    work = args.work or Path(tempfile.mkdtemp(prefix="hyzer-appliance-"))
    work.mkdir(parents=True, exist_ok=True)
    log(f"work in {work}, seed {args.seed}, Debian {args.distro} {args.arch}")
    started = time.monotonic()
    disk, kernel, initrd, tree = image(args, work)
    args.gpio = (tree / "usr/local/lib/hyzer-test/gpio-sim.ko").exists()
    shutil.rmtree(tree)
    figures = {"seed": args.seed, "gpio_sim": args.gpio}

    # The negative control first, on a copy: the same cuts with fsync off must lose scores.
    control = work / "control.img"
    run(["cp", "--sparse=always", str(disk), str(control)])
    lost = cuts(args, work, control, kernel, initrd, args.control_cuts, unsafe=True, label="control")
    control.unlink()
    figures["control_cuts"] = len(lost)
    figures["control_lost_acknowledged"] = sum(r["missing"] for r in lost)
    figures["control_integrity_not_ok"] = sum(r["integrity"] != "ok" for r in lost)

    done = cuts(args, work, disk, kernel, initrd, args.cuts, unsafe=False, label="cut")
    figures["cuts"] = len(done)
    figures["acknowledged"] = sum(r["acknowledged"] for r in done)
    figures["lost_acknowledged"] = sum(r["missing"] for r in done)
    figures["integrity_not_ok"] = sum(r["integrity"] != "ok" for r in done)
    figures["cut_cycle_s_median"] = sorted(r["boot_s"] for r in done)[len(done) // 2] if done else None

    first_boot(args, work, kernel, initrd, figures)
    args.fresh_disk.unlink()
    boot_to_board(args, work, disk, kernel, initrd, figures)
    figures["total_s"] = round(time.monotonic() - started, 1)

    failures = []
    if figures["control_lost_acknowledged"] == 0 and figures["control_integrity_not_ok"] == 0:
        failures.append("the negative control lost nothing: the cuts would not catch a store that does not fsync")
    if figures["lost_acknowledged"]:
        failures.append(f"{figures['lost_acknowledged']} acknowledged scores lost")
    if figures["integrity_not_ok"]:
        failures.append(f"integrity_check failed after {figures['integrity_not_ok']} cuts")
    if figures["screen_mean"] < 0.02:
        failures.append("the screen is black")
    if figures["first_boot_courses"] != figures["shipped_courses"]:
        failures.append(f"the first boot's store has {figures['first_boot_courses']} courses, not the "
                        f"{figures['shipped_courses']} shipped ones")
    if figures["first_boot_vs_headless_rmse"] > args_limit():
        failures.append(f"the first boot does not show the empty board (RMSE {figures['first_boot_vs_headless_rmse']})")
    # The same board as the headless kiosk draws for the same data, give or take a clock.
    if figures["screen_vs_headless_rmse"] > args_limit():
        failures.append(f"the screen is not the board (RMSE {figures['screen_vs_headless_rmse']} against the headless snapshot)")
    if figures["after_watchdog_vs_headless_rmse"] > args_limit():
        failures.append("the board did not come back after the watchdog restart")
    # The goal is 15 s on the board itself. Under TCG an arm64 guest runs the same binary about
    # three times slower than an amd64 one (its first frame after the restart: 20 s against 4),
    # while systemd's part (the watchdog's 10 s, the kill, RestartSec) stays as it is; the goal
    # is scaled with the guest, and the split says which part took the time.
    goal = slow(args, 15)
    if figures["watchdog_freeze_to_board_s"] > goal:
        failures.append(f"the board took {figures['watchdog_freeze_to_board_s']} s to come back after a freeze "
                        f"(goal {goal} s under TCG on {args.arch}): {figures.get('watchdog_split_s')}")
    # Direct KMS needs no GL: none of it may be mapped (it is not even installed).
    gl = [m for m in figures.get("kiosk_pss_by_mapping_kb", []) if re.search(r"libEGL|libGL|libGLES|libLLVM|libgbm|_dri\.so", m)]
    if gl:
        failures.append(f"the kiosk loaded a GL stack it does not draw with: {gl}")
    if not figures["replug_same_process"]:
        failures.append("the kiosk restarted when the panel was unplugged")
    if figures["replug_log"] != {"lost": 1, "back": 1}:
        failures.append(f"the kiosk's journal does not tell one unplug and one replug: {figures['replug_log']}")
    if figures["unplugged_screen_mean"] >= 0.02:
        failures.append("the kiosk kept its output on while the panel was unplugged")
    if figures["replugged_vs_before_rmse"] > args_limit():
        failures.append(f"the screen is not back after the panel was plugged back (RMSE {figures['replugged_vs_before_rmse']})")
    if args.gpio and (figures["gpio_detents"], figures["gpio_presses"]) != (12, 1):
        failures.append(f"gpio-sim: {figures['gpio_detents']} detents and {figures['gpio_presses']} presses, not 12 and 1")
    if args.gpio and figures["gpio_buzzer_high_samples"] == 0:
        failures.append("gpio-sim: the buzzer line never went high while the knob turned")
    figures["failures"] = failures
    print(json.dumps(figures, sort_keys=True))
    if not args.work and not failures:
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        log(f"FAILED: {failure}")
    return 1 if failures else 0


def args_limit():
    """Largest RMSE still "the board": the same data drawn by the same code differs only in
    what the clock writes; a black, blank or other screen is far above it."""
    return float(os.environ.get("HYZER_BOARD_RMSE_LIMIT", "0.08"))


if __name__ == "__main__":
    sys.exit(main())
