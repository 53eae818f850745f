"""The package layers and the import graph.

Every module's imports are read from its syntax tree, top-level and inside functions alike
(a lazy import is still an import), and checked against the layers, bottom to top:

1. core: ``envs/core`` plus ``envs/_numba_cache.py`` (the kernel-cache set-up every kernel
   module needs before it is decorated) and the ``transit_gym.envs`` package itself, whose
   ``__init__`` only configures that cache;
2. ``envs`` (the games, their registry and version modules);
3. ``agents``;
4. ``training``;
5. ``benchmarks``;
6. ``cli`` (the ``transit-gym`` command, which runs the tools of every layer).

A module may import its own layer and the layers below it, never one above; and no two
modules may import one another, directly or through others (no cycle). Strings handed to
``importlib`` (the registries' ``"module:Class"`` tables) are data, not imports.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOP_FOLDERS = ("envs", "agents", "training", "benchmarks", "cli")
#: layer of each top folder (core is handled apart)
LAYER_OF_TOP = {"envs": 1, "agents": 2, "training": 3, "benchmarks": 4, "cli": 5}
LAYER_NAMES = {0: "envs/core", 1: "envs", 2: "agents", 3: "training", 4: "benchmarks",
               5: "cli"}
CORE_EXTRA = {"transit_gym.envs", "transit_gym.envs._numba_cache"}


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (packages by their ``__init__``)."""
    found = {}
    for top in TOP_FOLDERS:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found["transit_gym." + ".".join(parts)] = path
    return found


def layer(module: str) -> int:
    """0 core, 1 envs, 2 agents, 3 training, 4 benchmarks, 5 cli."""
    if module in CORE_EXTRA or module.startswith("transit_gym.envs.core"):
        return 0
    return LAYER_OF_TOP[module.split(".")[1]]


def imports_of(module: str, path: Path, modules: set[str]) -> list[tuple[int, str]]:
    """(line, imported module of ours) for every import statement of a file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # ``from pkg import mod`` imports the module ``pkg.mod`` when there is one
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                     for alias in node.names]
        else:
            continue
        for name in names:
            while name and name not in modules:  # ``import a.b.c`` of ours: the deepest module
                name = name.rpartition(".")[0]
            if name.startswith("transit_gym.") and name != module:
                found.append((node.lineno, name))
    return found


def import_graph() -> tuple[dict[str, Path], dict[str, list[tuple[int, str]]]]:
    files = module_files()
    modules = set(files)
    return files, {m: imports_of(m, p, modules) for m, p in files.items()}


def test_the_walk_sees_lazy_and_top_level_imports():
    """The walk finds an import inside a function (the registry's lazy MCTS import) and a
    top-level one, so a layer rule below cannot pass by missing them."""
    _, graph = import_graph()
    targets = {name for _, name in graph["transit_gym.agents.registry"]}
    assert "transit_gym.agents.search.mcts" in targets  # imported inside make_agent
    assert "transit_gym.agents.base" in targets


def test_no_module_imports_a_layer_above_its_own():
    files, graph = import_graph()
    bad = []
    for module, edges in graph.items():
        for line, target in edges:
            if layer(target) > layer(module):
                rel = files[module].relative_to(ROOT)
                bad.append(f"{rel}:{line} ({LAYER_NAMES[layer(module)]}) imports {target} "
                           f"({LAYER_NAMES[layer(target)]})")
    assert not bad, "imports reaching a higher layer:\n" + "\n".join(bad)


def strongly_connected(graph: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_strongly_connected_finds_a_cycle():
    """The cycle finder itself: a -> b -> c -> a is one component, d alone is none."""
    graph = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": []}
    assert strongly_connected(graph) == [["a", "b", "c"]]
    assert strongly_connected({"a": ["b"], "b": []}) == []


def test_no_import_cycles():
    files, graph = import_graph()
    plain = {m: sorted({t for _, t in edges}) for m, edges in graph.items()}
    cycles = strongly_connected(plain)
    lines = []
    for component in cycles:
        members = set(component)
        lines.append("cycle among " + ", ".join(component) + ":")
        for module in component:
            for line, target in graph[module]:
                if target in members:
                    lines.append(f"  {files[module].relative_to(ROOT)}:{line} imports {target}")
    assert not cycles, "\n".join(lines)
