"""Documentation of the public API (issue 12): every public module, class,
function, method and property of the installed package has a docstring, the
type stub's docstrings are those of the compiled module, and the API reference
(pdoc, ``docs/api.md``) builds without a warning.

The checks read the runtime objects: the Rust classes get their docstrings from
the ``///`` comments in ``rust/python/*.rs`` when the extension is built.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import pathlib
import types
import warnings
from typing import Any, Iterator

import pytest

import dragoncastle

# Modules whose public names (``__all__``, else every name without a leading
# underscore that the module defines) are audited, with the public members of
# every class among them.
MODULES = [
    "dragoncastle",
    "dragoncastle._core",  # the Rust classes and functions, re-exported or used by the agents
    "dragoncastle.agents",
    "dragoncastle.arena",
    "dragoncastle.errors",
    "dragoncastle.play",
    "dragoncastle.replay",
    "dragoncastle.envs",
    "dragoncastle.reference",
    "dragoncastle.reference.agents",
]

# Callables and descriptors that carry a docstring of their own.
_DOCUMENTABLE = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodDescriptorType,
    types.ClassMethodDescriptorType,
    types.GetSetDescriptorType,
    types.MemberDescriptorType,
    property,
    staticmethod,
    classmethod,
)


def _public_names(module: types.ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items() if not n.startswith("_") and getattr(v, "__module__", None) == module.__name__]
    return list(names)


def _doc(obj: Any) -> str:
    """The docstring that ``help()`` shows (``inspect.getdoc`` also reads the
    docstrings of ``__slots__`` given as a dict)."""
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    return (inspect.getdoc(obj) or "").strip()


def _own_package(cls: type) -> bool:
    return (cls.__module__ or "").split(".")[0] == "dragoncastle"


def _class_members(cls: type) -> Iterator[tuple[str, Any]]:
    """The public methods and properties that ``cls`` (or a base class of this
    package) defines: dunders, enum members and plain data are left out."""
    seen: set[str] = set()
    for klass in cls.__mro__:
        if not _own_package(klass):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            if type(value) is cls:  # an enum member (TileType.MERCHANT, ...)
                continue
            if isinstance(value, _DOCUMENTABLE):
                yield name, value


def _audited() -> Iterator[tuple[str, Any]]:
    """``(qualified name, object)`` of everything that needs a docstring."""
    seen: set[int] = set()
    for modname in MODULES:
        module = importlib.import_module(modname)
        yield modname, module
        for name in _public_names(module):
            obj = getattr(module, name)
            if isinstance(obj, types.ModuleType):
                continue  # audited as a module of its own
            if not (inspect.isclass(obj) or callable(obj)):
                continue  # a constant: documented by its module (pdoc reads `#:` comments)
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            qual = f"{getattr(obj, '__module__', modname)}.{getattr(obj, '__qualname__', name)}"
            yield qual, obj
            if inspect.isclass(obj):
                for member, value in _class_members(obj):
                    yield f"{qual}.{member}", value


def missing_docstrings() -> list[str]:
    """Public names of the installed package without a docstring."""
    missing = []
    for qual, obj in _audited():
        if inspect.isclass(obj) or isinstance(obj, types.ModuleType):
            # Its own docstring, not one inherited from a base class.
            doc = (obj.__dict__.get("__doc__") or "").strip()
        else:
            doc = _doc(obj)
        if not doc:
            missing.append(qual)
    return sorted(set(missing))


def test_every_public_name_has_a_docstring():
    missing = missing_docstrings()
    assert not missing, f"{len(missing)} public names without a docstring:\n" + "\n".join(missing)


# ---------------------------------------------------------------- the stub

STUB = pathlib.Path(dragoncastle.__file__).with_name("_core.pyi")


def _stub_docstrings() -> Iterator[tuple[str, ast.AST, str | None]]:
    """``(qualified name, node, docstring)`` of the stub's public classes and functions."""
    tree = ast.parse(STUB.read_text(encoding="utf-8"))

    def walk(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, ast.AST, str | None]]:
        for node in body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and not node.name.startswith("__"):
                yield prefix + node.name, node, ast.get_docstring(node)
                if isinstance(node, ast.ClassDef):
                    yield from walk(node.body, f"{prefix}{node.name}.")

    yield "dragoncastle._core", tree, ast.get_docstring(tree)
    yield from walk(tree.body, "")


def test_stub_has_the_docstrings_too():
    """Editors show the stub's docstrings: every public class, method and
    property of ``_core.pyi`` has one."""
    missing = [name for name, _, doc in _stub_docstrings() if not (doc or "").strip()]
    assert not missing, f"{STUB} has no docstring for:\n" + "\n".join(missing)


def _runtime_object(qualname: str) -> Any:
    """The compiled object that the stub's ``qualname`` describes, as its class
    holds it (a property's descriptor, not a value); None if there is none."""
    obj: Any = dragoncastle._core
    if qualname == "dragoncastle._core":
        return obj
    for part in qualname.split("."):
        obj = inspect.getattr_static(obj, part, None)
        if obj is None:
            return None
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    return obj


def _paragraphs(doc: str | None) -> list[str]:
    """A docstring's paragraphs, indentation and trailing spaces removed."""
    lines = [line.rstrip() for line in inspect.cleandoc(doc or "").splitlines()]
    return [p.strip("\n") for p in "\n".join(lines).split("\n\n") if p.strip()]


def stub_docstring_mismatches() -> list[str]:
    """Stub names whose docstring is not the compiled object's ``__doc__`` (the
    ``///`` comment of the Rust binding), each with both texts."""
    problems = []
    for name, _, stub_doc in _stub_docstrings():
        obj = _runtime_object(name)
        if obj is None:
            problems.append(f"{name}: not in the compiled module")
            continue
        # The object's own __doc__, not inspect.getdoc's, which would give a class
        # without a doc comment its base class's docstring. CPython keeps PyO3's
        # text signature out of it (in __text_signature__), so it is the comment alone.
        runtime, stub = _paragraphs(obj.__doc__), _paragraphs(stub_doc)
        if not runtime:
            problems.append(f"{name}: no doc comment in rust/python/*.rs")
            continue
        # The stub may follow the comment with examples (docs/api.md): paragraphs
        # that start with `>>>`, which test_stub_examples_run runs.
        examples = stub[len(runtime):]
        if stub[: len(runtime)] != runtime or not all(p.startswith(">>>") for p in examples):
            problems.append(f"{name}:\n  stub: {stub_doc!r}\n  rust: {obj.__doc__!r}")
    return problems


def test_stub_docstrings_are_the_rust_doc_comments():
    """The stub's docstrings (what editors show) are the runtime ``__doc__``s
    (what ``help()`` and the API reference show), so the two cannot drift."""
    # Every name of the stub is compared: that the stub names everything the
    # compiled module has is test_stubs.py's stubtest check.
    problems = stub_docstring_mismatches()
    assert not problems, f"{len(problems)} docstrings of {STUB.name} differ from the compiled module's:\n" + "\n".join(problems)


def test_stub_examples_run():
    """The examples in the stub's docstrings run against the compiled module."""
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    attempted = 0
    for name, node, doc in _stub_docstrings():
        if doc and ">>>" in doc:
            test = parser.get_doctest(doc, {}, name, str(STUB), getattr(node, "lineno", 0))
            result = runner.run(test)
            attempted += result.attempted
    assert attempted > 0 and runner.failures == 0


# ---------------------------------------------------------------- help()

# The compiled classes with an order (sorted by id); the others compare for
# equality only.
ORDERED = {"Action", "Tile"}


def test_help_of_game_opens_with_the_class_and_its_main_methods():
    """Issue 40: ``help(dc.Game)`` starts with the class's docstring, which
    names the main methods (help() lists methods alphabetically, dunders
    first), not with comparisons that only raise ``TypeError``."""
    import pydoc

    lines = pydoc.render_doc(dragoncastle.Game, renderer=pydoc.plaintext).splitlines()
    first_method = next(i for i, line in enumerate(lines) if "Methods defined here" in line)
    assert "A game of Dragon Castle" in "\n".join(lines[:first_method])
    opening = "\n".join(lines[:40])
    for name in ("legal_actions()", "apply(action)", "scores()", "winners()", "undo()"):
        assert name in opening, name
    text = "\n".join(lines)
    for shown in ("__lt__", "__le__", "__gt__", "__ge__", "Return self<value"):
        assert shown not in text, shown


def test_classes_without_an_order_offer_no_ordering_methods():
    """Issue 40: CPython gives every class with ``==`` all six comparison
    methods; those that only raise ``TypeError`` are removed, so that
    ``Game.__lt__`` is ``object``'s (which raises the same error)."""
    import dragoncastle._core as core

    classes = {n: c for n, c in vars(core).items() if inspect.isclass(c) and not issubclass(c, BaseException)}
    assert ORDERED < set(classes) and "Game" in classes
    for name, cls in classes.items():
        for op in ("__lt__", "__le__", "__gt__", "__ge__"):
            assert (op in vars(cls)) == (name in ORDERED), (name, op)
            if name not in ORDERED:
                assert getattr(cls, op) is getattr(object, op), (name, op)
    g, h = dragoncastle.Game(players=2, seed=1), dragoncastle.Game(players=2, seed=2)
    assert g == g.clone() and g != h and not (g == h)
    for a, b in ((g, h), (dragoncastle.Phase.ACTION, dragoncastle.Phase.PLACE), (dragoncastle.Rules(), dragoncastle.Rules())):
        with pytest.raises(TypeError):
            a < b  # noqa: B015
    assert dragoncastle.Phase.ACTION == dragoncastle.Phase.ACTION != dragoncastle.Phase.PLACE
    assert dragoncastle.Action(3) < dragoncastle.Action(5) and sorted([dragoncastle.Action(5), dragoncastle.Action(3)])[0] == dragoncastle.Action(3)


# ---------------------------------------------------------------- examples elsewhere

# ---------------------------------------------------------------- the API reference

# What ``docs/api.md`` builds. pdoc follows the submodules that a package's
# ``__all__`` names (``dragoncastle`` brings .agents, .arena, .play, .reference
# and .reference.agents); the others are listed. ``dragoncastle._core`` is
# private: its public classes and functions are documented where
# ``dragoncastle`` re-exports them.
PDOC_MODULES = [
    "dragoncastle",
    "dragoncastle.errors",
    "dragoncastle.envs",
    "dragoncastle.envs.gymnasium",
    "dragoncastle.envs.pettingzoo",
    "dragoncastle.openspiel",
    "dragoncastle.plots",
    "dragoncastle.bench",
    "dragoncastle.cli",
    "dragoncastle.replay",
]


def test_api_reference_builds_without_warnings(tmp_path):
    import pdoc  # in the `test` extra
    import pdoc.render

    pdoc.render.configure(docformat="restructuredtext")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            pdoc.pdoc(*PDOC_MODULES, output_directory=tmp_path)
    finally:
        pdoc.render.configure()  # pdoc's defaults again
    problems = [f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})" for w in caught]
    assert not problems, "pdoc warned:\n" + "\n".join(problems)

    pages = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.html")}
    for name in PDOC_MODULES + ["dragoncastle.agents", "dragoncastle.arena", "dragoncastle.play", "dragoncastle.reference"]:
        assert name.replace(".", "/") + ".html" in pages, name
    # The Rust classes render on the package's page, with their members and docstrings.
    page = (tmp_path / "dragoncastle.html").read_text(encoding="utf-8")
    for cls in (dragoncastle.Game, dragoncastle.Action, dragoncastle.Tile, dragoncastle.Layout, dragoncastle.VecEnv):
        assert f'id="{cls.__name__}"' in page, cls
        for member, value in _class_members(cls):
            assert f'id="{cls.__name__}.{member}"' in page, f"{cls.__name__}.{member}"
    assert "Legal actions, sorted by id." in page


if __name__ == "__main__":
    print("\n".join(missing_docstrings()))
