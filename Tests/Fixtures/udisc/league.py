#!/usr/bin/env python3
"""A weekly league's UDisc export (issue 37's season pictures and checks): PLAYERS players
play Ridgeback's 18 holes every week for WEEKS weeks up to yesterday, in cards of at most
15 (a round holds 24), each player's strokes drawn from their own skill (seeded, so the
same arguments write the same file), then two of them play one more round today, in which
the second birdies every hole (a personal best and the course record: "PB!"). In UDisc's
newer header form.

    python3 league.py PLAYERS WEEKS [--seed N] > export.csv
"""

import argparse
import csv
import datetime
import random
import sys

PARS = [3, 4, 3, 3, 5, 3, 4, 3, 3, 3, 4, 3, 3, 5, 3, 3, 4, 3]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("players", type=int)
    parser.add_argument("weeks", type=int)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    names = [f"Player {i:02d}" for i in range(1, args.players + 1)]
    skill = {name: rng.uniform(-0.3, 0.9) for name in names}
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["PlayerName", "CourseName", "LayoutName", "StartDate", "EndDate", "Total", "+/-", "RoundRating"]
                 + [f"Hole{h}" for h in range(1, 19)])
    today = datetime.datetime.now().replace(hour=12, minute=0, second=0, microsecond=0)

    def round_rows(when, players, birdies=()):
        start, end = when.strftime("%Y-%m-%d %H:%M"), (when + datetime.timedelta(hours=2)).strftime("%Y-%m-%d %H:%M")
        out.writerow(["Par", "Ridgeback", "Championship", start, end, sum(PARS), 0, ""] + PARS)
        for name in players:
            strokes = [max(1, min(10, par + round(rng.gauss(skill[name], 0.8)))) for par in PARS]
            if name in birdies:
                strokes = [par - 1 for par in PARS]
            out.writerow([name, "Ridgeback", "Championship", start, end, sum(strokes), sum(strokes) - sum(PARS), ""] + strokes)

    for week in range(args.weeks, 0, -1):
        players = names[:]
        rng.shuffle(players)
        cards = (len(players) + 14) // 15
        for card in range(cards):
            when = today - datetime.timedelta(days=7 * week - 6, hours=-6, minutes=-card)
            round_rows(when, sorted(players[card::cards]))
    round_rows(today - datetime.timedelta(hours=3), names[:2], birdies=names[1:2])


if __name__ == "__main__":
    main()
