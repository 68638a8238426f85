#!/usr/bin/env python3
"""A UDisc scorecard export of a made-up group (issue 37 item 4), for the import's tests and
benchmark: ROUNDS rounds over ten years on three courses (9, 18 and 21 holes), 3 to 8
players each from a pool of 15, one Par row a round then each player's, in UDisc's newer
header form (or the older with --older). The same seed writes the same file.

    python3 generate.py ROUNDS [--seed N] [--older] > export.csv
"""

import argparse
import csv
import datetime
import random
import sys

COURSES = [
    ("Maple Hill", "Main", [3] * 9),
    ("Ridgeback", "Championship", [3, 4, 3, 3, 5, 3, 4, 3, 3, 3, 4, 3, 3, 5, 3, 3, 4, 3]),
    ("Ridgeback", "Long 21", [3] * 18 + [4, 4, 4]),
]
PLAYERS = ["Nate", "Mike", "Jake", "Sarah", "Priya", "Tom", "Lena", "Omar", "Kai", "Rosa", "Ben", "Mia", "Ivan", "Zoe", "Leo"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("rounds", type=int)
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--older", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    holes = max(len(pars) for _, _, pars in COURSES)
    out = csv.writer(sys.stdout, lineterminator="\n")
    if args.older:
        out.writerow(["PlayerName", "CourseName", "LayoutName", "Date", "Total", "+/-"] + [f"Hole{h}" for h in range(1, holes + 1)])
    else:
        out.writerow(["PlayerName", "CourseName", "LayoutName", "StartDate", "EndDate", "Total", "+/-", "RoundRating"]
                     + [f"Hole{h}" for h in range(1, holes + 1)])
    start = datetime.datetime(2016, 4, 2, 17, 30)
    span = 10 * 365 * 24 * 60
    # Rounds in time order, each on its own minute.
    minutes = sorted(rng.sample(range(span), args.rounds))
    for minute in minutes:
        when = start + datetime.timedelta(minutes=minute)
        course, layout, pars = rng.choice(COURSES)
        players = rng.sample(PLAYERS, rng.randint(3, 8))
        end = when + datetime.timedelta(minutes=8 * len(pars))

        def row(name, values):
            played = [v for v in values if v is not None]
            total = sum(played)
            par = sum(p for p, v in zip(pars, values) if v is not None)
            plus = "" if name == "Par" else ("0" if total == par else f"{total - par:+d}")
            cells = [("" if v is None else str(v)) for v in values] + [""] * (holes - len(values))
            if args.older:
                return [name, course, layout, when.strftime("%Y-%m-%d %H%M"), str(total), plus] + cells
            rating = "" if name == "Par" else str(rng.randint(150, 250))
            return [name, course, layout, when.strftime("%Y-%m-%d %H%M"), end.strftime("%Y-%m-%d %H%M"), str(total), plus,
                    rating] + cells

        out.writerow(row("Par", pars))
        for name in players:
            skill = PLAYERS.index(name) / len(PLAYERS)
            values = [max(1, min(10, p + rng.choice([-1, 0, 0, 0, 1, 1, 2]) + (1 if rng.random() < skill / 3 else 0)))
                      for p in pars]
            # One round in forty, someone stops early.
            if rng.random() < 0.025:
                stop = rng.randint(1, len(pars) - 1)
                values = values[:stop] + [None] * (len(pars) - stop)
            out.writerow(row(name, values))


if __name__ == "__main__":
    main()
