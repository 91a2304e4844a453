"""Python's cycle collector, tuned for processes that answer within milliseconds."""

from __future__ import annotations

import gc


def quiet_collector() -> None:
    """Put what start-up made (modules, schemas, the rules' tables, the store) out of the
    collector's sight before serving: a full collection then walks only what serving made,
    not every object the process holds. Measured (`python -m bench.rooms --loads 500
    --parts sqlite`): full collections of 44 to 105 ms, each a pause of every room the
    process serves, were most of the p99."""
    gc.collect()
    gc.freeze()
