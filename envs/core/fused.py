"""Loops written once over any game's kernels: the AEC step, the batch step, rollouts.

``fused_kernels(kernels)`` returns, once per process and game, jitted copies of the
templates in :mod:`transit_gym.envs.core.loops` whose globals are that game's kernels,
so the batch API and the whole-game rollouts run entirely inside numba. Each copy is
named after its game and the kernels it calls (``step_automobiles_<hash>``) and its
disk-cache stamp covers the game's sources as well as ``envs/core``, so numba keeps
the compiled loops on disk like any other kernel: a later process loads them instead
of compiling them again.
"""

from __future__ import annotations

import hashlib
import inspect
import types
from collections.abc import Callable
from types import SimpleNamespace

import numba as nb

from transit_gym.envs import _numba_cache
from transit_gym.envs.core import loops
from transit_gym.envs.core.loops import SLOT_STRIDE  # noqa: F401  (re-exported)

#: the game kernels a loop may call, as named in ``loops``
KERNEL_NAMES = ("init", "legal_mask", "apply", "current_player", "rewards", "observe")
#: the loops made for every game (``play_games`` also needs a policy: ``fused_play_games``)
GAME_LOOPS = ("step", "new_game", "refresh", "final_rewards", "batch_reset", "batch_step",
              "random_rollouts")

_CACHE: dict[int, SimpleNamespace] = {}
_PLAY_CACHE: dict[tuple[int, int], Callable] = {}


def fused_kernels(kernels) -> SimpleNamespace:
    """The fused loops for one game's ``Kernels`` (made once per process; each compiles
    on its first call, or loads from numba's disk cache)."""
    key = id(kernels)
    if key not in _CACHE:
        _CACHE[key] = _build(kernels)
    return _CACHE[key]


def fused_play_games(kernels, policy) -> Callable:
    """The jitted game loop between built-in agents, for one game's kernels and policy.

    ``policy(code, p, obs, mask, words) -> action`` picks for agent ``code``
    (0 random, 1 rule-based) from the observation and mask only, like any agent.
    """
    key = (id(kernels), id(policy))
    if key not in _PLAY_CACHE:
        fused = fused_kernels(kernels)
        functions = {name: getattr(kernels, name) for name in KERNEL_NAMES}
        functions["policy"] = policy
        namespace = _namespace(functions)
        namespace["new_game"] = fused.new_game
        _PLAY_CACHE[key] = _jit_copy("play_games", namespace, game_tag(functions),
                                     stamp_sources(functions))
    return _PLAY_CACHE[key]


def _build(kernels) -> SimpleNamespace:
    functions = {name: getattr(kernels, name) for name in KERNEL_NAMES}
    namespace = _namespace(functions)
    tag, sources = game_tag(functions), stamp_sources(functions)
    for name in GAME_LOOPS:  # globals of one another: bound before any is compiled
        namespace[name] = _jit_copy(name, namespace, tag, sources)
    return SimpleNamespace(**{name: namespace[name] for name in GAME_LOOPS})


def _namespace(functions: dict[str, Callable]) -> dict:
    """Globals for the copies: those of ``loops`` with the placeholders replaced."""
    namespace = dict(vars(loops))
    namespace.update(functions)
    return namespace


def jit_templates(templates: types.ModuleType, names: tuple[str, ...],
                  functions: dict[str, Callable]) -> SimpleNamespace:
    """Jitted, disk-cached copies of the functions ``names`` of a template module (plain
    Python whose globals name placeholders), with ``functions`` (one game's kernels,
    policy...) bound in place of the placeholders and the copies bound to one another.
    How the search agents get per-game loops that numba keeps on disk."""
    namespace = dict(vars(templates))
    namespace.update(functions)
    tag = game_tag(functions)
    sources = stamp_sources(functions)
    if sources is not None:
        own = _numba_cache.stamp_sources(inspect.getfile(templates))
        sources = None if own is None else tuple(sorted(set(sources) | set(own)))
    for name in names:  # globals of one another: bound before any is compiled
        namespace[name] = _jit_copy(name, namespace, tag, sources, templates)
    return SimpleNamespace(**{name: namespace[name] for name in names})


def _jit_copy(name: str, namespace: dict, tag: str, sources: tuple[str, ...] | None,
              templates: types.ModuleType = loops):
    """Jit a copy of template ``templates.<name>`` reading its globals from ``namespace``,
    cached on disk under ``<name>_<tag>`` and stamped with ``sources`` (not cached
    when None)."""
    template = getattr(templates, name)
    copy = types.FunctionType(template.__code__, namespace, name, template.__defaults__)
    copy.__qualname__ = f"{name}_{tag}"
    copy.__doc__ = template.__doc__
    if sources is None:  # kernels from outside the package: no safe cache stamp
        return nb.njit(copy)
    setattr(copy, _numba_cache.STAMP_ATTR, sources)
    return nb.njit(cache=True)(copy)


def _python_function(kernel: Callable) -> Callable:
    return getattr(kernel, "py_func", kernel)


def game_tag(functions: dict[str, Callable]) -> str:
    """``<game>_<hash>``: the game package of ``apply`` (else the module of the first
    function) and a digest naming every function a loop calls, so the cached copies of two
    games (or of two policies) never mix."""
    names = sorted(f"{role}={_python_function(f).__module__}.{_python_function(f).__qualname__}"
                   for role, f in functions.items())
    digest = hashlib.sha256("|".join(names).encode()).hexdigest()[:12]
    if "apply" not in functions:   # not a game's kernels (a leaf evaluation): its module
        anchor = next(iter(functions.values()))
        return f"{_python_function(anchor).__module__.split('.')[-1]}_{digest}"
    parts = _python_function(functions["apply"]).__module__.split(".")
    game = parts[-2] if len(parts) >= 2 else "game"
    return f"{game}_{digest}"


def stamp_sources(functions: dict[str, Callable]) -> tuple[str, ...] | None:
    """Every source the compiled loops freeze (None when a function is not ours)."""
    sources: set[str] = set()
    for function in functions.values():
        try:
            path = inspect.getfile(_python_function(function))
        except TypeError:
            return None
        found = _numba_cache.stamp_sources(path)
        if found is None:
            return None
        sources.update(found)
        # a jitted copy of a template (a game's leaf evaluation) covers its own sources too
        sources.update(getattr(_python_function(function), _numba_cache.STAMP_ATTR, ()))
    return tuple(sorted(sources))


def split64(seed: int) -> tuple[int, int]:
    """Two 32-bit halves of a 64-bit seed (for the fused loops)."""
    seed &= (1 << 64) - 1
    return seed & 0xFFFFFFFF, seed >> 32
