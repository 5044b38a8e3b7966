"""The score pad with a real server process: two phones on one table (one waits on the
long poll while the other enters), a reload mid-entry, and a server killed and restarted
on its SQLite file loses nothing."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx
from padutil import new_table, ok, table
from webutil import kill9, server


def test_two_phones_on_one_table_see_each_other_live(tmp_path: Path) -> None:
    with server(f"sqlite:///{tmp_path / 'pad.db'}") as (_proc, base), \
            httpx.Client(base_url=base, timeout=30) as ann_phone, \
            httpx.Client(base_url=base, timeout=30) as ben_phone:
        t = new_table(ann_phone, "base", ["Ann"])
        tid = t["id"]
        joined = ben_phone.post(f"/api/pad/tables/{tid}/players",
                                json={"join": t["join"], "name": "Ben"}).json()
        seen = table(ann_phone, tid)["version"]
        got: dict[str, Any] = {}

        def wait() -> None:
            got["table"] = ann_phone.get(f"/api/pad/tables/{tid}/wait",
                                         params={"since": seen, "timeout": 20}).json()

        waiter = threading.Thread(target=wait)
        waiter.start()
        ok(ben_phone, tid, joined["token"], {"op": "add_host", "host": "Oak"})
        waiter.join(25)
        assert not waiter.is_alive()
        assert got["table"]["version"] > seen
        assert got["table"]["players"][1]["forest"]["trees"] == [{"tree": "Oak"}]
        # an unchanged table answers at the timeout with the same version
        same = ann_phone.get(f"/api/pad/tables/{tid}/wait",
                             params={"since": got["table"]["version"], "timeout": 0.2}).json()
        assert same["version"] == got["table"]["version"]


def test_a_reload_and_a_killed_server_lose_nothing(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'pad.db'}"
    with server(db) as (proc, base), httpx.Client(base_url=base, timeout=30) as phone:
        t = new_table(phone, "dartmoor", ["Ann", "Ben"])
        tid, ann = t["id"], t["seats"][0]["token"]
        ok(phone, tid, ann, {"op": "add_host", "host": "Crab Apple"}, entry_id="a1")
        ok(phone, tid, ann, {"op": "add_card", "at": {"host": 0, "side": "bottom"},
                             "card": "Beaver"}, entry_id="a2")
        before = table(phone, tid)
        kill9(proc)
    with server(db) as (_proc, base), httpx.Client(base_url=base, timeout=30) as phone:
        assert table(phone, tid) == before  # the reload after the restart
        # the phone did not hear the answer to a2 and sends it again: applied once
        again = ok(phone, tid, ann, {"op": "add_card", "at": {"host": 0, "side": "bottom"},
                                     "card": "Beaver"}, entry_id="a2")
        assert again["replayed"] is True
        ok(phone, tid, ann, {"op": "undo"}, entry_id="a3")
        assert table(phone, tid)["players"][0]["forest"]["trees"] == [{"tree": "Crab Apple"}]
