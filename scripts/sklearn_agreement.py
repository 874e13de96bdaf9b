# Reference values from scikit-learn for lossbook's calibration agreement
# check. Reads a JSON document on stdin:
#   {"curves": [{"p": [...], "y": [...], "bins": 10, "strategy": "uniform"}],
#    "brier": [{"p": [...], "y": [...]}],
#    "kappa": [{"a": [...], "b": [...]}],
#    "isotonic": [{"p": [...], "y": [...], "at": [...]}],
#    "linspace": [10, 15, ...]}
# and writes the same structure with scikit-learn's answers. Run with
# Debian's /usr/bin/python3 (python3-sklearn).
import json
import sys

import numpy as np
import sklearn
from sklearn.calibration import calibration_curve
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import brier_score_loss, cohen_kappa_score

doc = json.load(sys.stdin)
out = {"sklearn": sklearn.__version__, "numpy": np.__version__, "curves": [], "brier": [], "kappa": [], "isotonic": [], "linspace": []}
for c in doc.get("curves", []):
    y = np.asarray(c["y"], dtype=float)
    p = np.asarray(c["p"], dtype=float)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=c["bins"], strategy=c["strategy"])
    if c["strategy"] == "uniform":
        edges = np.linspace(0.0, 1.0, c["bins"] + 1)
    else:
        edges = np.percentile(p, np.linspace(0, 1, c["bins"] + 1) * 100)
    counts = np.bincount(np.searchsorted(edges[1:-1], p), minlength=len(edges))
    out["curves"].append({
        "prob_true": prob_true.tolist(),
        "prob_pred": prob_pred.tolist(),
        "edges": edges.tolist(),
        "counts": counts[counts > 0].tolist(),
    })
for b in doc.get("brier", []):
    out["brier"].append(brier_score_loss(np.asarray(b["y"]), np.asarray(b["p"], dtype=float)))
for k in doc.get("kappa", []):
    out["kappa"].append(cohen_kappa_score(k["a"], k["b"]))
for c in doc.get("isotonic", []):
    # clip: held constant outside the fitted range, as lossbook's map is
    iso = IsotonicRegression(out_of_bounds="clip").fit(np.asarray(c["p"], dtype=float), np.asarray(c["y"], dtype=float))
    out["isotonic"].append(iso.predict(np.asarray(c["at"], dtype=float)).tolist())
for b in doc.get("linspace", []):
    out["linspace"].append(np.linspace(0.0, 1.0, b + 1).tolist())
json.dump(out, sys.stdout)
