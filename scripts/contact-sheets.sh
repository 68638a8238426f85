#!/bin/sh
# Contact sheets (issue 15): every screen at every panel size and group size, one PNG a
# screen in docs/screens/contact/, so a person can look at every combination at once.
# The headless kiosk (SDL's dummy driver, software renderer) draws each combination from a
# demo round; ImageMagick's montage tiles them, scaled down, with a label per tile.
#   usage: scripts/contact-sheets.sh BIN_DIR OUT_DIR   (what `make screens` runs)
set -eu
bin=$1
out=$2
sizes="800x480 1024x600 1280x720 1920x1080 1080x1920"
# A round holds at most 24 (Round.maxParticipants); 40 rows are in the layout check alone.
groups="1 2 6 12 20 24"
screens="board hole-card entry menu status finalize summary"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
script="$work/visit.txt"
cat >"$script" <<'SCRIPT'
expect-screen board
snapshot board
press
snapshot hole-card
press
snapshot entry
long-press
long-press
long-press
expect-screen menu
snapshot menu
turn 99
turn -1
press
expect-screen status
snapshot status
SCRIPT
# A round with every hole scored: the press finalizes it, and the summary follows.
finish="$work/finish.txt"
cat >"$finish" <<'SCRIPT'
press
expect-screen finalize
snapshot finalize
press
expect-screen summary
snapshot summary
SCRIPT
for group in $groups; do
	data="$work/data-$group"
	"$bin/hyzer" init --data "$data" >/dev/null
	"$bin/hyzer" demo --data "$data" --players "$group" --holes-played 3 --course "Riverside Nine" >/dev/null
	for size in $sizes; do
		shots="$work/shots-$group-$size"
		"$bin/hyzer-kiosk" --data "$data" --headless --size "$size" --script "$script" --snapshots "$shots" >/dev/null
		done_data="$work/done-$group-$size"
		"$bin/hyzer" init --data "$done_data" >/dev/null
		"$bin/hyzer" demo --data "$done_data" --players "$group" --holes-played 9 --course "Riverside Nine" >/dev/null
		"$bin/hyzer-kiosk" --data "$done_data" --headless --size "$size" --script "$finish" --snapshots "$shots" >/dev/null
		for screen in $screens; do
			shot=$(ls "$shots"/*-"$screen".png | tail -n 1)
			cp "$shot" "$work/$screen-$size-$group.png"
		done
	done
done
mkdir -p "$out"
for screen in $screens; do
	tiles=""
	for size in $sizes; do
		for group in $groups; do
			tiles="$tiles $work/$screen-$size-$group.png"
		done
	done
	# One row a panel size, one column a group size; portrait tiles keep their shape.
	# shellcheck disable=SC2086
	montage -label '%t' $tiles -tile 6x5 -geometry '240x240+6+6' -background '#202020' -fill '#dddddd' \
		-pointsize 13 -title "$screen: sizes down, groups 1 2 6 12 20 24 across" "$work/$screen-sheet.png"
	convert "$work/$screen-sheet.png" -strip -colors 64 "$out/$screen.png"
done

# The README's pictures (docs/screens/*.png), from the same demo round the README describes:
# 6 players on the first 18-hole course, 6 holes played (what `hyzer demo` makes).
data="$work/readme"
"$bin/hyzer" init --data "$data" >/dev/null
"$bin/hyzer" demo --data "$data" >/dev/null
shoot() { # SIZE SCRIPT_TEXT DATA: plays it, leaves the shots in $work/readme-shots
	rm -rf "$work/readme-shots"
	printf '%s\n' "$2" >"$work/readme.txt"
	"$bin/hyzer-kiosk" --data "$3" --headless --size "$1" --script "$work/readme.txt" --snapshots "$work/readme-shots" >/dev/null
}
take() { cp "$(ls "$work"/readme-shots/*-"$1".png | tail -n 1)" "$out/../$2.png"; }
shoot 1280x720 "snapshot board
press
snapshot hole-card
press
snapshot crown-entry
long-press
long-press
long-press
expect-screen menu
snapshot menu" "$data"
take board board
take hole-card hole-card
take crown-entry crown-entry
take menu menu
shoot 800x480 "snapshot board" "$data"
take board board-pi-panel-800x480
shoot 720x1280 "snapshot board" "$data"
take board board-portrait
empty="$work/empty"
"$bin/hyzer" init --data "$empty" >/dev/null
"$bin/hyzer" demo --data "$empty" --holes-played 18 >/dev/null
shoot 1280x720 "press
expect-screen finalize
snapshot finalize
press
expect-screen summary
snapshot summary
press
press
expect-screen setup-course
snapshot setup-course
press
expect-screen setup-players
snapshot setup-players" "$empty"
for name in finalize summary setup-course setup-players; do take "$name" "$name"; done
