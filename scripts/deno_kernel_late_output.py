#!/usr/bin/python3
"""Reproduce the Deno Jupyter kernel's late output: a cell's output published
on IOPub after that cell's status "idle".

A bare kernel, no project code: start `deno jupyter --kernel` through
jupyter_client, execute the same one-line cell N times per variant, and log
every IOPub message in arrival order. A cell's output is *late* when its
display_data / execute_result (parent = that cell's execute_request) arrives
after the cell's idle status; *lost* when it never arrives within the drain
time after the last cell. Clients that stop reading a cell at its idle
(nbclient, and so nbconvert --execute, papermill and most CI runners) drop a
late output without an error.

Usage: /usr/bin/python3 scripts/deno_kernel_late_output.py [--cells N]
       [--variants value,display,display_yield,broadcast_yield] [--kernel deno]

Prints the versions, then one line per variant ("<variant>: N late of M
cells, N lost") and one JSON line; exits 1 when any output of a *_yield
variant was late or lost (the workaround failed), 0 otherwise. Each variant
runs on a fresh kernel.
"""

import argparse
import json
import platform
import subprocess
import sys
import time
from queue import Empty

import jupyter_client

OUTPUT_TYPES = {"execute_result", "display_data", "stream", "error"}

VARIANTS = {
    # a display object returned as the cell's value (execute_result)
    "value": '({ [Symbol.for("Jupyter.display")]() { return { "text/plain": "shown" }; } })',
    # an explicit raw display, awaited
    "display": 'await Deno.jupyter.display({ "text/plain": "shown" }, { raw: true });',
    # the workaround: the same display, then a 20 ms yield before the cell ends
    "display_yield": (
        'await Deno.jupyter.display({ "text/plain": "shown" }, { raw: true });\n'
        "await new Promise((resolve) => setTimeout(resolve, 20));"
    ),
    # the same through Deno.jupyter.broadcast (what display() calls), with
    # output metadata, then the yield: what lossbook's show() sends
    "broadcast_yield": (
        'await Deno.jupyter.broadcast("display_data", { data: { "text/plain": "shown" }, '
        'metadata: { "text/plain": {} }, transient: {} });\n'
        "await new Promise((resolve) => setTimeout(resolve, 20));"
    ),
}


def versions(kernel_name):
    spec = jupyter_client.kernelspec.KernelSpecManager().get_kernel_spec(kernel_name)
    exe = spec.argv[0]
    try:
        deno = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
        deno = deno.splitlines()[0]
    except OSError:
        deno = f"{exe}: not runnable"
    return (
        f"kernel: {kernel_name} ({' '.join(spec.argv[:3])}), {deno}; "
        f"jupyter_client {jupyter_client.__version__}; "
        f"python {platform.python_version()}; {platform.system()} {platform.machine()}"
    )


def run_variant(kc, code, cells, drain):
    """Execute `code` `cells` times; return (late, lost) counts."""
    log = []  # (kind, parent_id) in arrival order
    ids = []
    for _ in range(cells):
        msg_id = kc.execute(code, store_history=True)
        ids.append(msg_id)
        while True:
            msg = kc.get_iopub_msg(timeout=60)
            parent = msg["parent_header"].get("msg_id")
            kind = msg["msg_type"]
            if kind == "status":
                kind = "idle" if msg["content"]["execution_state"] == "idle" else "busy"
            log.append((kind, parent))
            if kind == "idle" and parent == msg_id:
                break
        kc.get_shell_msg(timeout=60)  # the execute_reply
    deadline = time.monotonic() + drain
    while (left := deadline - time.monotonic()) > 0:
        try:
            msg = kc.get_iopub_msg(timeout=left)
        except Empty:
            break
        log.append((msg["msg_type"], msg["parent_header"].get("msg_id")))
    late = lost = 0
    for msg_id in ids:
        idle_at = log.index(("idle", msg_id))
        outputs = [i for i, (k, p) in enumerate(log) if p == msg_id and k in OUTPUT_TYPES]
        if not outputs:
            lost += 1
        elif max(outputs) > idle_at:
            late += 1
    return late, lost


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cells", type=int, default=150, help="cells per variant (default 150)")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--kernel", default="deno", help="kernel spec name (default deno)")
    ap.add_argument("--drain", type=float, default=2.0, help="seconds to listen after the last cell")
    args = ap.parse_args()
    print(versions(args.kernel), flush=True)
    failed = False
    for name in args.variants.split(","):
        km, kc = jupyter_client.manager.start_new_kernel(kernel_name=args.kernel)
        try:
            late, lost = run_variant(kc, VARIANTS[name], args.cells, args.drain)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
        print(f"{name}: {late} late of {args.cells} cells, {lost} lost", flush=True)
        print(json.dumps({"variant": name, "cells": args.cells, "late": late, "lost": lost}))
        if name.endswith("_yield") and (late or lost):
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
