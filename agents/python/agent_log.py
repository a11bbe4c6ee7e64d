"""The agent's log, streamed to the platform only while someone reads its journal (decision 209)."""

import itertools
import sys
import threading
import uuid
from collections import deque
from datetime import datetime, timezone

LOG_BATCH_MAX_LINES = 50
LOG_RECENT_LINES = 500
LOG_MESSAGE_MAX_CHARS = 1000


def now_iso():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class AgentLog:
    """The agent's log: a ring buffer, streamed only while someone reads the journal (decision 209)."""

    def __init__(self, send):
        self.send = send
        self.ring = deque(maxlen=LOG_RECENT_LINES)
        self.queue = []
        self.streaming = False
        self.lock = threading.Lock()
        # A line's id is unique on this PC across runs: a line sent again is kept once (docs/protocol.md).
        self.run_id = uuid.uuid4().hex[:8]
        self.seq = itertools.count(1)

    def write(self, level, message):
        line = {
            "id": f"{self.run_id}-{next(self.seq)}",
            "level": level,
            "time": now_iso(),
            "message": message[:LOG_MESSAGE_MAX_CHARS],
        }
        print(f"[{level}] {message}", file=sys.stderr, flush=True)
        with self.lock:
            self.ring.append(line)
            if self.streaming:
                self.queue.append(line)

    def start(self):
        """The journal was opened: the recent lines first (`backlog`), then each new one."""
        with self.lock:
            self.streaming = True
            backlog = list(self.ring)
            self.queue = []
        for at in range(0, len(backlog), LOG_BATCH_MAX_LINES):
            self.send({"lines": backlog[at : at + LOG_BATCH_MAX_LINES], "backlog": True})

    def stop(self):
        with self.lock:
            self.streaming = False
            self.queue = []

    def flush(self):
        with self.lock:
            lines, self.queue = self.queue[:LOG_BATCH_MAX_LINES], self.queue[LOG_BATCH_MAX_LINES:]
        if lines:
            self.send({"lines": lines})
