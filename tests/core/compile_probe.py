"""A snippet for the scripts that start-up tests run in fresh processes: it records, in the
list ``compiled`` (or under ``compiled[phase]`` when the script sets a dict and a ``phase``),
the qualified name of every function of ours that numba compiles (a cache miss)."""

COUNT_OUR_COMPILES = """
from numba.core import event

class Count(event.Listener):
    def on_start(self, ev):
        fn = ev.data["dispatcher"].py_func
        if fn.__module__.startswith("transit_gym."):
            bucket = compiled[phase] if isinstance(compiled, dict) else compiled
            bucket.append(fn.__qualname__)
    def on_end(self, ev):
        pass

event.register("numba:compile", Count())
"""
