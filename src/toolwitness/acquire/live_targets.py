"""From server specs to live surfaces for the pipeline, failures kept per server.

Ids are the ones the static path gives the same specs (`targets.static_surfaces`), so a server
keeps its id whether it was scanned statically, live, or failed. A spec the client config
switches off is not started. A server that cannot be acquired keeps its config-only surface
(transport and package, so posture and supply-chain checks still run) and an error that makes
the scan incomplete (exit 3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from toolwitness.acquire.live import LiveObserver, LiveOptions, acquire_many
from toolwitness.acquire.targets import STATIC_NOTE, static_surfaces
from toolwitness.model import ServerSpec, ServerSurface

FAILED_NOTE = "live acquisition failed: the surface holds only the config entry"


def live_surfaces(
    specs: Sequence[ServerSpec],
    options: LiveOptions,
    observer: LiveObserver | None = None,
    *,
    online: bool = False,
    on_surface: Callable[[ServerSurface], object] | None = None,
) -> tuple[list[ServerSurface], dict[str, tuple[str, ...]]]:
    """Connect every enabled spec; returns surfaces (in spec order) and errors by server id.

    `on_surface` runs in a worker thread on each surface as soon as it is listed.
    """
    static = static_surfaces(specs, online=online)
    named = [
        spec.model_copy(update={"name": surface.id})
        for spec, surface in zip(specs, static, strict=True)
    ]
    to_run = [spec for spec in named if spec.enabled]
    outcomes = {o.spec.name: o for o in acquire_many(to_run, options, observer, on_surface)}
    surfaces: list[ServerSurface] = []
    failures: dict[str, tuple[str, ...]] = {}
    for spec, fallback in zip(named, static, strict=True):
        outcome = outcomes.get(spec.name)
        if outcome is None:  # switched off in its config: reported statically
            surfaces.append(fallback)
        elif outcome.surface is not None:
            surfaces.append(outcome.surface)
        else:
            notes = (FAILED_NOTE, *(n for n in fallback.notes if n != STATIC_NOTE))
            surfaces.append(fallback.model_copy(update={"notes": notes}))
            failures[spec.name] = (f"live: {outcome.error}",)
    return surfaces, failures
