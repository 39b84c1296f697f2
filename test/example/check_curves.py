#!/usr/bin/env python3
"""Checks a training run's output folder: curves.csv has one row per epoch,
the final validation accuracy reaches a threshold, curves.png is a PNG (when
gnuplot is installed) and the model was saved.

usage: check_curves.py OUT_DIR EPOCHS MIN_VALID_ACC
"""
import csv
import os
import shutil
import sys

out, epochs, threshold = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
rows = list(csv.DictReader(open(os.path.join(out, "curves.csv"))))
assert len(rows) == epochs, f"curves.csv has {len(rows)} rows, expected {epochs}"
assert [int(r["epoch"]) for r in rows] == list(range(1, epochs + 1)), "epochs out of order"
final = float(rows[-1]["valid_acc"])
assert final >= threshold, f"final validation accuracy {final} is below {threshold}"
if shutil.which("gnuplot"):
    with open(os.path.join(out, "curves.png"), "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", "curves.png is not a PNG"
assert os.path.getsize(os.path.join(out, "model.pt")) > 0, "no saved model"
print(f"curves ok: {epochs} epochs, final validation accuracy {final:.3f}")
