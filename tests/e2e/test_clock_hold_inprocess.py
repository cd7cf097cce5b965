"""The save tick under a wall clock that jumps, both clocks passed in (no sleeps): the tick deletes no orphan
and lets no session go while the clock is held, acts again after an hour of a steady clock, and deletes an
orphan stamped before the jump once a whole grace period has passed since the jump (bounded, not forever)."""

from __future__ import annotations

import trio
from e2e_helpers import reference_graph
from inprocess import sessions_of

from kg_actors.config import Config
from kg_actors.core.clock_guard import CLOCK_STEADY_S
from kg_actors.core.constants import DAY_SECONDS
from kg_actors.runtime import Runtime, _tick, run_server
from kg_actors.testing import write_store

T = 1_800_000_000.0


async def test_the_tick_holds_its_time_rules_after_a_jump_and_acts_again_bounded(tmp_path, home):
    wall, boot = [T - 400 * DAY_SECONDS], [1000.0]  # the server's clock starts 400 days behind
    behind = wall[0]
    orphans = [{"id": f"orphan-{k}", "gist": f"orphaned on the clock behind {k}", "_archived": True,
                "_orphaned_ts": behind - DAY_SECONDS} for k in range(3)]
    write_store(tmp_path / "store", reference_graph([{"id": "kept-lesson", "gist": "active"}, *orphans]))
    config = Config(root=tmp_path / "store", port=0, editor=False, save_interval=3600, autocommit_interval=0)
    cwd = home / "proj"
    cwd.mkdir()
    async with trio.open_nursery() as nursery:
        rt: Runtime = await nursery.start(run_server, config, lambda: wall[0], False, lambda: boot[0])
        user = await rt.directory.get("user")
        [sid] = await sessions_of(rt, cwd, "claude-1")
        await _tick(rt)

        wall[0], boot[0] = T, boot[0] + 2  # NTP: 400 days ahead in two seconds of the boot clock
        await _tick(rt)
        assert rt.clock_keeper is not None and rt.clock_keeper.status(wall[0])["held"] is True
        assert len(user.snapshot().nodes) == 4 and await rt.sessions.get(sid) is not None

        wall[0], boot[0] = wall[0] + CLOCK_STEADY_S, boot[0] + CLOCK_STEADY_S  # an hour of a steady clock
        await _tick(rt)
        assert rt.clock_keeper.status(wall[0])["held"] is False
        assert len(user.snapshot().nodes) == 4  # their grace counts from the jump
        assert await rt.sessions.get(sid) is not None  # its day idle too

        wall[0] += DAY_SECONDS
        boot[0] += DAY_SECONDS
        await _tick(rt)
        assert await rt.sessions.get(sid) is None  # a day idle since the jump: let go, as the README says

        wall[0] += 365 * DAY_SECONDS
        boot[0] += 365 * DAY_SECONDS
        await _tick(rt)
        assert set(user.snapshot().nodes) == {"kept-lesson"}  # a whole grace after the jump: deleted (bounded)
        nursery.cancel_scope.cancel()
