#!/usr/bin/python3
"""Execute one notebook with plain nbclient, and count the kernel's late outputs.

The notebook runs through nbclient's NotebookClient with its defaults (the
engine of `jupyter nbconvert --execute` and papermill): nothing here changes
which outputs land in the notebook. Beside it, a passive observer subscribes
to the kernel's IOPub channel and logs every message in arrival order; an
output message (display_data, execute_result, stream, error) that arrives
after its own cell's status "idle" is *late*: nbclient has stopped listening
to that cell by then and drops it. The observer only counts them.

Usage: /usr/bin/python3 scripts/execute_notebook.py IN.ipynb OUT.ipynb

Writes the executed notebook to OUT.ipynb without nbclient's cell-timing
metadata (metadata.execution), so the same notebook gives the same bytes,
and prints one JSON line: {"late": N, "lateCells": [index, ...],
"observed": true|false}. "observed" is false when the observer missed the
start of a cell (it joined too late), so the count may be short. Exits 1
with the error on stderr when a cell raises (the notebook is still written,
with the error output, so its cells can be checked).
"""

import json
import os
import sys
import threading
import time
from queue import Empty

import nbformat
from jupyter_client import BlockingKernelClient
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

OUTPUT_TYPES = {"display_data", "execute_result", "stream", "error", "update_display_data"}
DRAIN_SECONDS = 1.0  # after the last cell, listen this long for its late output


class Observer:
    """A second IOPub subscriber that logs (kind, parent id, code) in arrival order."""

    def __init__(self, connection_info):
        self.kc = BlockingKernelClient()
        self.kc.load_connection_info(connection_info)
        self.kc.start_channels(shell=True, iopub=True, stdin=False, hb=False, control=False)
        # kernel_info until IOPub answers: the subscription is live
        self.kc.wait_for_ready(timeout=60)
        self.log = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self):
        while not self.stop.is_set():
            try:
                msg = self.kc.get_iopub_msg(timeout=0.1)
            except Empty:
                continue
            kind = msg["msg_type"]
            if kind == "status":
                kind = msg["content"]["execution_state"]
            self.log.append(
                (kind, msg["parent_header"].get("msg_id"), msg["content"].get("code"))
            )

    def close(self):
        self.stop.set()
        self.thread.join()
        self.kc.stop_channels()

    def late_outputs(self, cells):
        """Late outputs per cell: (count, cell indices, whether every cell was seen)."""
        code_cells = [i for i, c in enumerate(cells) if c.cell_type == "code" and c.source.strip()]
        requests = [p for k, p, _ in self.log if k == "execute_input"]
        idle_at = {}
        for at, (kind, parent, _) in enumerate(self.log):
            if kind == "idle":
                idle_at.setdefault(parent, at)
        late = 0
        late_cells = []
        for n, parent in enumerate(requests):
            if parent not in idle_at:
                continue
            count = sum(
                1
                for at, (kind, p, _) in enumerate(self.log)
                if p == parent and kind in OUTPUT_TYPES and at > idle_at[parent]
            )
            if count:
                late += count
                late_cells.append(code_cells[n] if n < len(code_cells) else None)
        observed = len(requests) == len(code_cells) or (
            # a raising cell stops the run: every cell up to it was seen
            0 < len(requests) < len(code_cells) and requests[-1] in idle_at
        )
        return late, late_cells, observed


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[2], file=sys.stderr)
        return 2
    src, dst = argv[1], argv[2]
    nb = nbformat.read(src, as_version=4)
    client = NotebookClient(
        nb,
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(src))}},
    )
    observer = {}
    last_code = max(
        (i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.source.strip()),
        default=-1,
    )

    def on_notebook_start(notebook):
        observer["o"] = Observer(client.km.get_connection_info())

    def on_cell_executed(cell, cell_index, execute_reply):
        if cell_index == last_code or execute_reply["content"].get("status") == "error":
            time.sleep(DRAIN_SECONDS)

    client.on_notebook_start = on_notebook_start
    client.on_cell_executed = on_cell_executed
    status = 0
    try:
        client.execute()
    except CellExecutionError as error:
        print(str(error), file=sys.stderr)
        status = 1
    finally:
        o = observer.get("o")
        if o is not None:
            o.close()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, dst)
    late, late_cells, observed = o.late_outputs(nb.cells) if o else (0, [], False)
    print(json.dumps({"late": late, "lateCells": late_cells, "observed": observed}))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
