"""The layout of the C++ core and binding: their files include each other bottom-up, with no circle.

Every ``#include "..."`` line of cpp/src, cpp/include and cpp/bindings is read (the files are not
compiled; an include inside ``#if`` counts too). A quoted name is looked up as the compiler does:
beside the including file, then in cpp/include. Two graphs are checked:

* the files: no header includes itself through others (``#pragma once`` would hide such a circle
  and leave the second header reading the first half-declared);
* the concepts: a header and its source are one concept (``burraco/heuristic.hpp`` with
  ``heuristic.cpp``), the binding's files concepts of their own. A source that includes a header
  whose concept includes the source's own header is a circle of concepts even though no file
  includes itself: search.hpp included heuristic.hpp (and declared functions heuristic.cpp
  defined) while heuristic.cpp included search.hpp for greedy's. A header with no source of its
  own (all inline: ``turn.hpp``, ``heuristic_memo.hpp``, ``cardset.hpp``, the binding's
  ``binding.hpp``) is a layer between its includers and what it includes, not a concept: its
  includes count as its includers' own. So the game's sources may share turn.hpp, which includes
  game.hpp, and a circle that passes through such a header is still found.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphs import find_cycle

ROOT = Path(__file__).resolve().parent.parent
DIRECTORIES = ("cpp/src", "cpp/include", "cpp/bindings")
INCLUDE_PATH = "cpp/include"
SUFFIXES = {".h", ".hpp", ".cpp"}
QUOTED = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def _files(root: Path) -> list[Path]:
    return sorted(path for directory in DIRECTORIES for path in (root / directory).rglob("*")
                  if path.suffix in SUFFIXES and path.is_file())


def include_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """file -> the files it includes with quotes, as paths relative to ``root``."""
    graph: dict[str, set[str]] = {}
    for path in _files(root):
        edges: set[str] = set()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = QUOTED.match(line)
            if not match:
                continue
            name = match.group(1)
            for base in (path.parent, root / INCLUDE_PATH):
                target = (base / name).resolve()
                if target.is_file():
                    break
            else:
                raise AssertionError(f"{path.relative_to(root)}:{number}: #include \"{name}\" names no "
                                     "file beside it or in cpp/include")
            if root.resolve() in target.parents:
                edges.add(target.relative_to(root.resolve()).as_posix())
        graph[path.relative_to(root).as_posix()] = edges
    return graph


def concept(file: str) -> str:
    """The concept of a file: the core's header and source share one, the binding's files theirs."""
    group = "bindings" if file.startswith("cpp/bindings/") else "core"
    return group + ":" + Path(file).stem


def concept_graph(files: dict[str, set[str]]) -> dict[str, set[str]]:
    """concept -> the concepts its files include; a header with no source of its own stands for
    what it includes (see above)."""
    with_source = {concept(file) for file in files if file.endswith(".cpp")}

    def reached(targets: set[str], seen: set[str]) -> set[str]:
        out: set[str] = set()
        for target in targets:
            if concept(target) in with_source:
                out.add(concept(target))
            elif target not in seen:
                seen.add(target)
                out |= reached(files.get(target, set()), seen)
        return out

    graph: dict[str, set[str]] = {}
    for file, targets in files.items():
        if concept(file) in with_source:
            edges = graph.setdefault(concept(file), set())
            edges |= reached(targets, set()) - {concept(file)}
    return graph


def test_no_header_includes_itself():
    graph = include_graph()
    headers = {file: {t for t in targets if not t.endswith(".cpp")}
               for file, targets in graph.items() if not file.endswith(".cpp")}
    cycle = find_cycle(headers)
    assert cycle is None, "headers include each other in a circle: " + " -> ".join(cycle or [])


def test_no_concept_includes_itself():
    cycle = find_cycle(concept_graph(include_graph()))
    assert cycle is None, "concepts include each other in a circle: " + " -> ".join(cycle or [])


def test_the_graph_sees_the_includes():
    # The scanner reads the includes that are there: both spellings of a quoted name, and the
    # policies' layers (the loops on the heuristic, the heuristic on greedy and its memos).
    files = include_graph()
    assert "cpp/src/turn.hpp" in files["cpp/src/heuristic.cpp"]
    assert "cpp/src/heuristic_memo.hpp" in files["cpp/src/heuristic.cpp"]
    assert "cpp/bindings/binding.hpp" in files["cpp/bindings/game.cpp"]
    assert "cpp/include/burraco/game.hpp" in files["cpp/include/burraco/heuristic.hpp"]
    concepts = concept_graph(files)
    assert {"core:greedy", "core:heuristic"} <= concepts["core:policies"]
    assert {"core:greedy", "core:game"} <= concepts["core:heuristic"]
    assert "core:turn" not in concepts and "core:heuristic_memo" not in concepts
    assert "core:observation" in concepts["core:actions"]
    assert "core:policies" in concepts["core:ismcts"]
    assert {"core:game", "core:policies"} <= concepts["bindings:game"]
    assert "core:policies" not in concepts["core:heuristic"] | concepts["core:greedy"]


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for directory in DIRECTORIES:
        (tmp_path / directory).mkdir(parents=True, exist_ok=True)
    return tmp_path


def test_a_circle_through_a_source_is_found(tmp_path):
    # The circle the core had: no header includes itself, but the concepts do.
    root = _tree(tmp_path, {
        "cpp/include/burraco/search.hpp": '#pragma once\n#include "burraco/heuristic.hpp"\n',
        "cpp/include/burraco/heuristic.hpp": "#pragma once\n",
        "cpp/src/search.cpp": '#include "burraco/search.hpp"\n',
        "cpp/src/heuristic.cpp": '#include "burraco/heuristic.hpp"\n  #  include "burraco/search.hpp"\n',
    })
    files = include_graph(root)
    headers = {f: {t for t in ts if not t.endswith(".cpp")} for f, ts in files.items()
               if not f.endswith(".cpp")}
    assert find_cycle(headers) is None
    assert find_cycle(concept_graph(files)) == ["core:heuristic", "core:search", "core:heuristic"]


def test_a_header_with_no_source_is_a_layer(tmp_path):
    # The game's sources share turn.hpp, which includes game.hpp: a layer, not a circle. A source
    # of another concept that includes it depends on the game, and a game source that includes
    # that concept's header closes a circle through it.
    files = {
        "cpp/include/burraco/game.hpp": "#pragma once\n",
        "cpp/src/turn.hpp": '#pragma once\n#include "burraco/game.hpp"\n',
        "cpp/src/game.cpp": '#include "burraco/game.hpp"\n#include "turn.hpp"\n',
        "cpp/include/burraco/heuristic.hpp": "#pragma once\n",
        "cpp/src/heuristic.cpp": '#include "burraco/heuristic.hpp"\n#include "turn.hpp"\n',
    }
    graph = concept_graph(include_graph(_tree(tmp_path, files)))
    assert graph == {"core:game": set(), "core:heuristic": {"core:game"}}
    assert find_cycle(graph) is None
    (tmp_path / "cpp/src/game.cpp").write_text('#include "turn.hpp"\n#include "burraco/heuristic.hpp"\n',
                                               encoding="utf-8")
    assert find_cycle(concept_graph(include_graph(tmp_path))) == [
        "core:game", "core:heuristic", "core:game"]


def test_a_circle_of_headers_is_found(tmp_path):
    root = _tree(tmp_path, {
        "cpp/include/burraco/a.hpp": '#include "burraco/b.hpp"\n',
        "cpp/include/burraco/b.hpp": '#include <vector>\n#include "c.hpp"\n',
        "cpp/include/burraco/c.hpp": '// #include "nothing.hpp" is a comment\n#include "a.hpp"\n',
    })
    files = include_graph(root)
    assert find_cycle(files) == ["cpp/include/burraco/a.hpp", "cpp/include/burraco/b.hpp",
                                 "cpp/include/burraco/c.hpp", "cpp/include/burraco/a.hpp"]


def test_a_binding_file_is_not_the_core_file_of_its_name(tmp_path):
    # cpp/bindings/game.cpp includes the core's game.hpp through binding.hpp: no circle.
    root = _tree(tmp_path, {
        "cpp/include/burraco/game.hpp": "#pragma once\n",
        "cpp/src/game.cpp": '#include "burraco/game.hpp"\n',
        "cpp/bindings/binding.hpp": '#include "burraco/game.hpp"\n',
        "cpp/bindings/game.cpp": '#include "binding.hpp"\n',
    })
    assert find_cycle(concept_graph(include_graph(root))) is None


def test_an_include_of_no_file_fails(tmp_path):
    root = _tree(tmp_path, {"cpp/src/a.cpp": '#include "burraco/missing.hpp"\n'})
    with pytest.raises(AssertionError, match=r'cpp/src/a.cpp:1: #include "burraco/missing.hpp"'):
        include_graph(root)
